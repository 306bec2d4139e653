import type { HandlerContext } from "../handler-context.ts";
import { formatTime } from "../data/clock.ts";
import { wireId } from "../data/ids.ts";
import { vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { readWatermark } from "./incremental.ts";
import { pagedReply } from "./list-response.ts";

/** GET on the tombstone feed of a vendor whose deletes are listed there. */
export function listTombstones(ctx: HandlerContext): Reply {
  const { vendor, req, records } = ctx;
  if (vendor.deletes.mode !== "tombstones") throw new Error("tombstones route on a vendor without a tombstone feed");
  const d = vendor.deletes;
  const wm = d.incremental ? readWatermark(vendor, req.query) : { ok: true as const };
  if (!wm.ok) return vendorError(vendor, 400, "invalid_parameter", wm.message, { parameter: vendor.incremental!.param });
  const listKey = `tombstones|${wm.since ? wm.since.ms : ""}`;
  return pagedReply(ctx, vendor.paging, listKey, (page) => {
    const { rows, total } = records.deletedPage(wm.since, page.offset, page.limit);
    const items = rows.map((r) => {
      const resource = vendor.resources.find((x) => x.name === r.entity)!;
      return JSON.stringify({ id: wireId(resource, r.id), [d.entityField]: r.entity, [d.deletedAtField]: formatTime(r.deletedMs!, vendor.clock.format, r.id) });
    });
    return { items, total };
  });
}
