import type { Gateway } from "../../../declarations/schema/gateways.ts";
import { gatewayStyle } from "../../../mechanics/gateways/index.ts";
import type { DocModel } from "../model.ts";
import { code, link } from "./helpers.ts";
import { gatewaySlug } from "./gateway-page.ts";

/** The lines that say how an operation is called: endpoint, headers, and an example request body. */
export function operationCall(m: DocModel, g: Gateway, operation: string, example: Record<string, string>): string[] {
  const style = gatewayStyle(g);
  const headers = Object.entries(style.docs.callHeaders(g, operation)).map(([k, v]) => `${k}: ${v}`);
  const lines = [code("", [`POST ${g.path}`, ...headers].join("\n")), "", `Operation \`${operation}\` of ${link(g.service, gatewaySlug(g))}. ${style.docs.failures}`, ""];
  if (m.profile !== "sparse") lines.push("Request:", "", code("xml", style.docs.exampleRequest(g, operation, example)), "");
  return lines;
}
