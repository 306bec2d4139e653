import type { Paging } from "../../../declarations/schema/pagination.ts";
import type { DocModel } from "../model.ts";

/** Prose for one paging scheme. */
export function describePaging(p: Paging, items: string, next: string, total: string): string[] {
  const lines: string[] = [];
  if (p.style === "offset")
    lines.push(`Pass \`${p.offsetParam}\` (zero-based index of the first record) and \`${p.limitParam}\` (records per page, default ${p.defaultLimit}, at most ${p.maxLimit}).`);
  else if (p.style === "page") lines.push(`Pass \`${p.pageParam}\` (the first page is ${p.firstPage}) and \`${p.sizeParam}\` (records per page, default ${p.defaultLimit}, at most ${p.maxLimit}).`);
  else
    lines.push(
      `Pass \`${p.limitParam}\` (records per page, default ${p.defaultLimit}, at most ${p.maxLimit}); for later pages pass the \`${p.cursorParam}\` from the previous page. Cursors are opaque.`,
    );
  lines.push(p.overMax === "error" ? "Larger page sizes are refused with `400`." : "Larger page sizes are cut to the maximum.");
  lines.push(`Records are in \`${items}\`.${p.total ? ` \`${total}\` holds the number of matching records.` : ""}`);
  if (p.next === "body")
    lines.push(
      p.style === "cursor"
        ? `\`${next}\` holds the cursor of the next page, or \`null\` on the last page.`
        : `\`${next}\` holds the next ${p.style === "page" ? "page number" : "offset"}, or \`null\` on the last page.`,
    );
  if (p.next === "link-header") lines.push('Every page but the last has a `Link: <url>; rel="next"` header (RFC 8288).');
  if (p.next === "hal") lines.push("Responses carry `_links.self.href` and, except on the last page, `_links.next.href`.");
  return lines;
}

/** `pagination.md`. */
export function paginationPage(m: DocModel): string {
  const lines = ["# Pagination", "", ...describePaging(m.paging, m.envelope.items, m.envelope.next, m.envelope.total), ""];
  const overrides = m.resources.filter((r) => r.list && JSON.stringify(r.list.paging) !== JSON.stringify(m.paging));
  if (overrides.length) {
    lines.push("## Endpoints that page differently", "");
    for (const r of overrides) lines.push(`### \`GET ${r.list!.path}\``, "", ...describePaging(r.list!.paging, m.envelope.items, m.envelope.next, m.envelope.total), "");
  }
  return lines.join("\n");
}
