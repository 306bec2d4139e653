import type { Resource } from "../../../declarations/schema/vendor.ts";
import type { HandlerContext } from "../handler-context.ts";
import { vendorError, type Reply } from "../http/reply.ts";
import { readWatermark } from "./incremental.ts";
import { pagedReply } from "./list-response.ts";
import { serializeRecord } from "./serialize.ts";

/** GET on a resource's list path. */
export function listRecords(ctx: HandlerContext, resource: Resource): Reply {
  const { vendor, req, records } = ctx;
  let parent: string | undefined;
  if (resource.parent) {
    parent = ctx.params.parentId;
    const p = records.get(resource.parent, parent);
    if (!p || (p.deletedMs !== null && vendor.deletes.mode !== "flag")) return vendorError(vendor, 404, "not_found", `${resource.parent} ${parent} does not exist`);
  }
  const wm = resource.incremental ? readWatermark(vendor, req.query) : { ok: true as const };
  if (!wm.ok) return vendorError(vendor, 400, "invalid_parameter", wm.message, { parameter: vendor.incremental!.param });
  const filter = {
    entity: resource.name,
    parent,
    includeDeleted: vendor.deletes.mode === "flag",
    visibleTo: req.seq,
    since: wm.since,
  };
  const listKey = `${resource.name}|${parent ?? ""}|${wm.since ? wm.since.ms : ""}`;
  return pagedReply(ctx, resource.paging ?? vendor.paging, listKey, (page) => ({
    items: records.page(filter, page.offset, page.limit).map((r) => serializeRecord(vendor, resource, r, req.query)),
    total: records.count(filter),
  }));
}
