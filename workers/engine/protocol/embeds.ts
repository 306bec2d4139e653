/**
 * @module embeds
 * Child records served inside their parent (`Resource.embeds`): the first
 * `limit` children in list order, and a flag saying whether there are more,
 * which only the child's own list serves. Lists, reads and write responses
 * embed them the same way, one query per page of parents.
 */
import type { Resource } from "../../../declarations/schema/vendor.ts";
import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import { hashKey } from "../../../mechanics/kit/hash-key.ts";
import type { HandlerContext } from "../handler-context.ts";
import type { RecordRow } from "../store/records.ts";
import { etagOf, serializeRecord } from "./serialize.ts";

/** The embedded arrays and flags of some records of `resource`, by record id (empty when it embeds nothing). */
export function embeddedFor(ctx: HandlerContext, resource: Resource, ids: string[], renames?: Map<string, { to: string }>): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  if (!resource.embeds.length || !ids.length) return out;
  const { vendor, records, req } = ctx;
  const listsDeleted = deleteStyle(vendor.deletes).listsDeleted;
  for (const id of ids) out.set(id, {});
  for (const e of resource.embeds) {
    const child = vendor.resources.find((r) => r.name === e.entity)!;
    const kids = records.childrenOf(child.name, ids, req.seq, listsDeleted, e.limit);
    for (const id of ids) {
      const k = kids.get(id);
      const fields = out.get(id)!;
      fields[e.field] = (k?.rows ?? []).map((c) => serializeRecord(vendor, child, { id: c.id, data: JSON.parse(c.text), deletedMs: c.deleted ? 1 : null }, req.query, renames));
      fields[e.flag] = (k?.total ?? 0) > e.limit;
    }
  }
  return out;
}

/**
 * The ETag of a record as served: its version's, and when it embeds
 * children a digest of them too, so a change to a child is never answered
 * 304 (nor passes an `If-Match` taken before it).
 */
export function servedTag(row: Pick<RecordRow, "id" | "version">, embedded: Record<string, unknown> | undefined): string {
  if (!embedded) return etagOf(row as RecordRow);
  return `"${row.id}-v${row.version}-e${hashKey([JSON.stringify(embedded)]).toString(16)}"`;
}
