import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { Resource } from "../../../declarations/schema/vendor.ts";
import type { HandlerContext } from "../handler-context.ts";
import { vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { readWatermark } from "./incremental.ts";
import { pagedReply } from "./list-response.ts";
import { serializeRecord, viewKey } from "./serialize.ts";

/** GET on a resource's list path; a legacy list (`truncateAt`) ends silently after that many records. */
export function listRecords(ctx: HandlerContext, resource: Resource, truncateAt = Number.POSITIVE_INFINITY): Reply {
  const { vendor, req, records } = ctx;
  let parent: string | undefined;
  if (resource.parent) {
    parent = ctx.params.parentId;
    const p = records.get(resource.parent, parent);
    if (!p || (p.deletedMs !== null && !deleteStyle(vendor.deletes).listsDeleted)) return vendorError(vendor, 404, "not_found", `${resource.parent} ${parent} does not exist`);
  }
  const wm = resource.incremental ? readWatermark(vendor, req.query) : { ok: true as const };
  if (!wm.ok) return vendorError(vendor, 400, "invalid_parameter", wm.message, { parameter: vendor.incremental!.param });
  const filter = {
    entity: resource.name,
    parent,
    includeDeleted: deleteStyle(vendor.deletes).listsDeleted,
    visibleTo: req.seq,
    since: wm.since,
  };
  const listKey = `${resource.name}|${parent ?? ""}|${wm.since ? wm.since.ms : ""}`;
  const view = viewKey(resource, req.query);
  const renames = ctx.faults.renames(ctx.config.checkpoint);
  for (const [key, r] of renames) if (key.startsWith(`${resource.name}.`)) ctx.notes.faults.push(r.fault);
  return pagedReply(
    ctx,
    resource.paging ?? vendor.paging,
    listKey,
    (page) => ({
      items: records.pageText(filter, page.offset, Math.max(0, Math.min(page.limit, truncateAt - page.offset))).map((r) => {
        const key = `${resource.name}|${r.id}|${r.version}|${r.lagging ? 1 : 0}|${r.deleted ? 1 : 0}|${view}`;
        let json = ctx.rowCache.get(key);
        if (json === undefined) {
          const data = JSON.parse(r.text) as Record<string, unknown>;
          json = JSON.stringify(serializeRecord(vendor, resource, { id: r.id, data, deletedMs: r.deleted ? 1 : null }, req.query, renames));
          ctx.rowCache.set(key, json);
        }
        return json;
      }),
      total: Math.min(records.count(filter), truncateAt),
    }),
    resource.name,
  );
}
