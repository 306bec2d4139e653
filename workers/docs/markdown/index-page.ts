import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { DocModel } from "../../../mechanics/kit/doc-model.ts";
import { code, curlAuthFlags, describeTimeFormat, link } from "./helpers.ts";

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
    "All paths in this documentation are relative to the base URL. Requests and responses are JSON.",
    "",
    "## Quick start",
    "",
    `Credentials are issued per integration: ${m.credentials.map((c) => `\`${c.name}\``).join(", ")}. See ${link("Authentication", "authentication")}.`,
    "",
  ];
  if (first?.list) lines.push(code("sh", [`curl "${m.baseUrl}${first.list.path}"`, ...curlAuthFlags(m)].join(" \\\n  ")), "");
  lines.push(`Timestamps are ${describeTimeFormat(m.timeFormat, m.timeZone)}.`, "");
  if (m.profile === "sparse") {
    lines.push("## Endpoints", "");
    for (const r of m.resources) {
      if (r.list) lines.push(`- \`GET ${r.list.path}\``);
      if (r.get) lines.push(`- \`GET ${r.get.path}\``);
    }
    for (const w of m.writes) lines.push(`- \`${w.method} ${w.path}\``);
    const feed = deleteStyle(m.deletes).feed;
    if (feed) lines.push(`- \`GET ${feed.path(m.deletes)}\``);
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
