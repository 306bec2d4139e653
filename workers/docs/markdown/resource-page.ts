import type { Write } from "../../../declarations/schema/writes.ts";
import { deleteFlagField } from "../../../mechanics/deletes/index.ts";
import { pagingStyle } from "../../../mechanics/paging/index.ts";
import { windowStyle } from "../../../mechanics/windows/index.ts";
import { type DocModel, type DocResource, listParams } from "../model.ts";
import { code, curlAuthFlags, exampleRecord, link, table } from "./helpers.ts";
import { embedTexts, writeOptionSentences } from "../option-text.ts";
import { operationCall } from "./gateway-call.ts";
import { gatewayAt } from "./gateway-page.ts";
import { formatTime } from "../../engine/data/clock.ts";

function exampleIdPath(path: string, r: DocResource, m: DocModel): string {
  const ex = r.examples[0];
  const parentEx = r.parent ? m.resources.find((x) => x.name === r.parent)?.examples[0] : undefined;
  return path
    .replace(":id", ex ? String(ex.id) : "{id}")
    .replace(":parentId", String((ex?.data[r.fields.find((f) => f.refersTo === r.parent)?.name ?? ""] as string | undefined) ?? parentEx?.id ?? "{parentId}"));
}

/** The known-issue notice of a list that skips records between pages. */
export function knownIssue(r: DocResource, skip: number): string {
  const records = skip === 1 ? "the record at every page boundary is" : `${skip} records at every page boundary are`;
  const fallback = r.legacyList ? ` Until it is fixed, read ${r.plural.replace(/_/g, " ")} from \`GET ${r.legacyList.path}\`, which returns them all.` : "";
  return `**Known issue:** each page after the first starts ${skip === 1 ? "one record" : `${skip} records`} late, so ${records} never returned by this list.${fallback}`;
}

function listSection(m: DocModel, r: DocResource): string[] {
  const list = r.list!;
  const g = list.operation ? gatewayAt(m, list.path) : undefined;
  const lines = [`### List ${r.plural}`, ""];
  if (g && list.operation) {
    const example = Object.fromEntries(
      listParams(list)
        .filter((p) => p.role === "position" || p.role === "size" || p.role === "sort" || p.role === "flag")
        .map((p) => [p.name, p.value ?? (p.role === "size" ? String(list.paging.defaultLimit ?? 50) : p.role === "position" ? "0" : "")]),
    );
    lines.push(...operationCall(m, g, list.operation, example));
  } else lines.push(code("", `GET ${list.path}`), "");
  lines.push(
    table(
      [g ? "element" : "parameter", "description"],
      listParams(list).map((p) => [`\`${p.name}\``, p.description]),
    ),
    "",
  );
  if (g) {
    if (m.profile !== "sparse") lines.push(`See ${link("Pagination", "pagination")}. The records come back as repeated \`<${r.name}>\` elements inside \`<${m.envelope.items}>\`.`, "");
    return lines;
  }
  if (list.window) for (const sentence of windowStyle(list.window.declared).docs.describe(list.window.declared as never, list.window.historyStart)) lines.push(sentence, "");
  if (r.legacyList)
    lines.push(
      r.legacyList.truncateAt === undefined
        ? `The older \`GET ${r.legacyList.path}\` is deprecated but still served, with the same records and paging.`
        : `The older \`GET ${r.legacyList.path}\` is deprecated: it pages the same way but stops after ${r.legacyList.truncateAt} records in all, with no sign of more.`,
      "",
    );
  if (list.skipsAtPageBoundary) lines.push(knownIssue(r, list.skipsAtPageBoundary), "");
  if (m.profile === "sparse") return lines;
  lines.push(`See ${link("Pagination", "pagination")}.`, "");
  if (r.examples.length) {
    const windowed = list.window ? exampleWindow(m, r, list.window.declared) : null;
    const shown = windowed ? windowed.examples : r.examples;
    const body: Record<string, unknown> = { [m.envelope.items]: shown.map((ex) => exampleRecord(m, r, ex)) };
    if (list.paging.total) body[m.envelope.total] = windowed ? shown.length : r.count;
    if (windowed) Object.assign(body, windowed.report);
    if (list.paging.next === "body") body[m.envelope.next] = pagingStyle(list.paging).docs.exampleNext(list.paging);
    if (list.paging.next === "hal") body._links = { self: { href: `${m.baseUrl}${exampleIdPath(list.path, r, m)}` }, next: { href: `${m.baseUrl}${exampleIdPath(list.path, r, m)}?…` } };
    const flags = listParams(list)
      .filter((p) => p.role === "flag" || p.role === "sort")
      .map((p) => `${p.name}=${p.value}`);
    if (windowed) flags.push(...windowed.query);
    const url = `${m.baseUrl}${exampleIdPath(list.path, r, m)}${flags.length ? `?${flags.join("&")}` : ""}`;
    lines.push("Request:", "", code("sh", [`curl "${url}"`, ...curlAuthFlags(m)].join(" \\\n  ")), "", "Response:", "", code("json", JSON.stringify(body, null, 2)), "");
  }
  return lines;
}

/** The example page of a windowed list: the UTC day of the first example record, the examples in it, the window as the answer reports it. */
export function exampleWindow(m: DocModel, r: DocResource, declared: NonNullable<NonNullable<DocResource["list"]>["window"]>["declared"]) {
  const style = windowStyle(declared);
  const decl = declared as never;
  const field = style.field(decl);
  const fromMs = Math.floor(Number(r.examples[0].data[field]) / 86_400_000) * 86_400_000;
  const toMs = fromMs + 86_400_000;
  const at = (ms: number) => formatTime(ms, m.timeFormat, "", m.timeZone.zone);
  const { from, to } = style.params(decl);
  return {
    examples: r.examples.filter((ex) => Number(ex.data[field]) >= fromMs && Number(ex.data[field]) < toMs),
    query: [`${from}=${encodeURIComponent(String(at(fromMs)))}`, `${to}=${encodeURIComponent(String(at(toMs)))}`],
    report: { [style.reportField(decl)]: { from: at(fromMs), to: at(toMs) } },
  };
}

function getSection(m: DocModel, r: DocResource): string[] {
  const g = r.get?.operation ? gatewayAt(m, r.get.path) : undefined;
  if (g && r.get?.operation)
    return [`### Get one ${r.name}`, "", ...operationCall(m, g, r.get.operation, { [r.idField]: String(r.examples[0]?.id ?? "…") }), `The record comes back as one \`<${r.name}>\` element.`, ""];
  const lines = [
    `### Get one ${r.name}`,
    "",
    code("", `GET ${r.get!.path}`),
    "",
    "Responses carry an `ETag`; send it back in `If-None-Match` to revalidate a copy you hold (`304 Not Modified` when it is current).",
    "",
  ];
  if (m.profile !== "sparse" && r.examples.length) lines.push("Response:", "", code("json", JSON.stringify(exampleRecord(m, r, r.examples[0]), null, 2)), "");
  return lines;
}

function writeSection(m: DocModel, w: Write): string[] {
  const lines = [`### ${w.name}`, ""];
  const via = m.gateways.flatMap((g) => g.operations.filter((o) => o.write === w.name).map((o) => ({ g, op: o.name })))[0];
  if (w.path) lines.push(code("", `${w.method} ${w.path}`), "");
  else if (via) lines.push(...operationCall(m, via.g, via.op, Object.fromEntries(w.inputs.filter((i) => i.required).map((i) => [i.name, i.oneOf?.[0] ?? "…"]))));
  if (m.profile !== "sparse") lines.push(w.description, "");
  const inputs = table(
    ["field", "type", "required", "description"],
    w.inputs.map((i) => [`\`${i.name}\``, i.type, i.required ? "yes" : "no", i.description + (i.oneOf ? ` One of ${i.oneOf.map((o) => `\`${o}\``).join(", ")}.` : "")]),
  );
  if (w.op === "bulk-create")
    lines.push(
      `The body holds up to ${w.maxItems} items in \`${w.itemsField}\`, each with:`,
      "",
      inputs,
      "",
      "The response is `207 Multi-Status` with one entry per item in `results`: its `index`, `status`, and the new id or the item's `errors`.",
      "",
    );
  else lines.push(inputs, "");
  if (w.idempotency)
    lines.push(
      w.idempotency.in === "header"
        ? `Send an \`${w.idempotency.name}\` header to make retries safe: a repeat within ${w.idempotency.windowS} s returns the first response.`
        : `Send \`${w.idempotency.field}\` in the body to make retries safe: a repeat within the next ${w.idempotency.windowWrites} writes returns the first response.`,
      "",
    );
  if (w.ifMatch) lines.push("Send `If-Match` with the `ETag` of your last read of the record.", "");
  for (const sentence of writeOptionSentences(w)) lines.push(sentence, "");
  if (w.errors === "rpc-200") lines.push(`Failures answer \`200\` with \`${m.errors.rpcOkField}: false\`; see ${link("Errors", "errors")}.`, "");
  return lines;
}

/** `resource-<plural>.md`: fields, endpoints, parameters and examples of one resource. */
export function resourcePage(m: DocModel, r: DocResource): string {
  const lines = [`# ${r.plural[0].toUpperCase()}${r.plural.slice(1).replace(/_/g, " ")}`, "", r.description, "", "## Fields", ""];
  const rows = r.fields.map((f) => [
    `\`${f.name}\``,
    f.type + (f.nullable ? ", nullable" : ""),
    f.description + (f.onlyWith ? ` Only returned with \`${f.onlyWith.param}=${f.onlyWith.value}\`.` : ""),
  ]);
  const flag = deleteFlagField(m.deletes);
  if (flag) rows.push([`\`${flag}\``, "boolean", "Whether the record was deleted."]);
  for (const e of r.embeds) {
    const text = embedTexts(m, r, e);
    rows.push([`\`${e.field}\``, `array of ${e.entity}`, text.field]);
    if (e.flag && text.flag) rows.push([`\`${e.flag}\``, "boolean", text.flag]);
  }
  lines.push(table(["field", "type", "description"], rows), "", "## Endpoints", "");
  if (r.list) lines.push(...listSection(m, r));
  if (r.get) lines.push(...getSection(m, r));
  for (const w of m.writes.filter((x) => x.entity === r.name)) lines.push(...writeSection(m, w));
  return lines.join("\n");
}
