import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { DocModel } from "../model.ts";
import { code, curlAuthFlags, describeTimeFormat, link } from "./helpers.ts";
import { gatewaySlug } from "./gateway-page.ts";

/** `index.md`: what the API is, where it lives, and a first request. */
export function indexPage(m: DocModel, pages: { slug: string; title: string }[]): string {
  const first = m.resources.find((r) => r.list && !r.parent) ?? m.resources[0];
  const lines = [
    `# ${m.vendor.name} API`,
    "",
    m.vendor.summary,
    "",
    "## Base URL",
    "",
    code("", m.baseUrl),
    "",
    `All paths in this documentation are relative to the base URL. ${m.resources.some((r) => r.list && !r.list.operation) ? "Requests and responses are JSON." : "Requests and responses are XML."}`,
    "",
    "## Quick start",
    "",
    `Credentials are issued per integration: ${m.credentials.map((c) => `\`${c.name}\``).join(", ")}. See ${link("Authentication", "authentication")}.`,
    "",
  ];
  if (first?.list && !first.list.operation) lines.push(code("sh", [`curl "${m.baseUrl}${first.list.path}"`, ...curlAuthFlags(m)].join(" \\\n  ")), "");
  for (const g of m.gateways) lines.push(`${g.service} takes its calls as XML documents at \`${g.path}\`; see ${link(g.service, gatewaySlug(g))}.`, "");
  lines.push(`Timestamps are ${describeTimeFormat(m.timeFormat, m.timeZone)}.`, "");
  if (m.profile === "sparse") {
    lines.push("## Endpoints", "");
    for (const r of m.resources) {
      if (r.list) lines.push(r.list.operation ? `- \`${r.list.operation}\` at \`POST ${r.list.path}\`` : `- \`GET ${r.list.path}\``);
      if (r.get) lines.push(r.get.operation ? `- \`${r.get.operation}\` at \`POST ${r.get.path}\`` : `- \`GET ${r.get.path}\``);
    }
    for (const w of m.writes) if (w.path) lines.push(`- \`${w.method} ${w.path}\``);
    for (const g of m.gateways) for (const o of g.operations.filter((x) => x.action === "write" || x.action === "feed")) lines.push(`- \`${o.name}\` at \`POST ${g.path}\``);
    const feedPath = deleteStyle(m.deletes).feed?.path(m.deletes);
    if (feedPath) lines.push(`- \`GET ${feedPath}\``);
    const test = m.webhooks?.testDelivery;
    if (test) lines.push(`- \`POST ${test.path}\` with \`{"${test.typeField}": "<entity>.<created|updated|deleted>"}\`: sends one signed test webhook event of that type to your endpoint (202)`);
    lines.push("");
    if (m.rateLimit) lines.push(`Limits: ${m.rateLimit.limit} requests, then ${m.rateLimit.cooldownS} s of 429s; the wait is given ${retryStyle(m.rateLimit.retryAfter)}.`, "");
    lines.push(`Errors: ${errorShapeLine(m)}.`, "");
    lines.push(`Deletes: ${deletesLine(m)}.`, "");
  }
  lines.push("## Contents", "", ...pages.filter((p) => p.slug !== "index").map((p) => `- ${link(p.title, p.slug)}`), "");
  return lines.join("\n");
}

export function retryStyle(style: string): string {
  return style === "seconds" ? "in the `Retry-After` header, in seconds" : style === "http-date" ? "in the `Retry-After` header, as an HTTP date" : "in the response body (`retry_after_seconds`)";
}

export function errorShapeLine(m: DocModel): string {
  const inner = `{"${m.errors.codeField}": "...", "${m.errors.messageField}": "..."}`;
  return `\`${m.errors.wrap ? `{"${m.errors.wrap}": ${inner}}` : inner}\``;
}

export function deletesLine(m: DocModel): string {
  return deleteStyle(m.deletes).docs.clause(m.deletes);
}
