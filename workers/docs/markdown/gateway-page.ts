import type { Gateway } from "../../../declarations/schema/gateways.ts";
import { gatewayStyle } from "../../../mechanics/gateways/index.ts";
import type { DocModel } from "../model.ts";
import { curlAuthFlags, link, table } from "./helpers.ts";

/** The slug of a gateway's page. */
export function gatewaySlug(g: Gateway): string {
  return `gateway-${g.service.replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase()}`;
}

/** The gateway serving `path`, if any. */
export function gatewayAt(m: DocModel, path: string): Gateway | undefined {
  return m.gateways.find((g) => g.path === path);
}

/** Where an operation's parameters are documented: its REST counterpart's, or the resource page. */
function operationParams(m: DocModel, op: Gateway["operations"][number]): string {
  const w = m.writes.find((x) => x.name === op.write);
  const r = m.resources.find((x) => x.name === (op.resource ?? w?.entity));
  const page = r ? link(r.plural.replace(/_/g, " "), `resource-${r.plural.replace(/_/g, "-")}`) : link("deletes", "syncing");
  if (op.action === "list" && r?.list && !r.list.operation) return `the query parameters of \`GET ${r.list.path}\`, as elements`;
  if (op.action === "get" && r?.get && !r.get.operation) return `the record's id in \`<${r.idField}>\` (as \`GET ${r.get.path}\`)`;
  if (w?.path) return `the body fields of \`${w.method} ${w.path}\`, as elements${w.op === "update" && r ? `, with the record's id in \`<${r.idField}>\`` : ""}`;
  return `see ${page}`;
}

/** `gateway-<service>.md`: how to call the gateway, and its operations. */
export function gatewayPage(m: DocModel, g: Gateway): string {
  const style = gatewayStyle(g);
  const lines = [`# ${g.service}`, "", ...style.docs.overview(g, m.baseUrl), ""];
  const headers = Object.entries(style.docs.callHeaders(g, g.operations[0].name)).map(([k, v]) => `-H '${k}: ${v}'`);
  lines.push(
    "Every call carries the same credentials as any other request:",
    "",
    "```sh",
    [`curl -X POST "${m.baseUrl}${g.path}"`, ...headers, ...curlAuthFlags(m), "--data-binary @request.xml"].join(" \\\n  "),
    "```",
    "",
  );
  lines.push(
    "## Operations",
    "",
    table(
      ["operation", "what it does", "parameters"],
      g.operations.map((o) => [`\`${o.name}\``, o.description, operationParams(m, o)]),
    ),
    "",
  );
  lines.push("Answers hold each record's fields as listed on its resource page, one element per field; lists hold their records as repeated elements named after the record type.", "");
  return lines.join("\n");
}
