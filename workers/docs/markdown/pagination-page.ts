import { describePaging } from "../../../mechanics/paging/index.ts";
import type { DocModel } from "../model.ts";

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
