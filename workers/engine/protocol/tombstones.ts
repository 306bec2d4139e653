import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import { vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { formatTime, recordZone } from "../data/clock.ts";
import { wireId } from "../data/ids.ts";
import type { HandlerContext } from "../handler-context.ts";
import { readWatermark } from "./incremental.ts";
import { pagedReply } from "./list-response.ts";

/** GET on the feed of a delete style that lists deletions. */
export function listTombstones(ctx: HandlerContext): Reply {
  const { vendor, req, records } = ctx;
  const d = vendor.deletes;
  const feed = deleteStyle(d).feed;
  if (!feed) throw new Error("deletion feed route on a vendor whose delete style has no feed");
  const wm = feed.incremental(d) ? readWatermark(vendor, req.query) : { ok: true as const };
  if (!wm.ok) return vendorError(vendor, 400, "invalid_parameter", wm.message, { parameter: vendor.incremental!.param });
  const listKey = `tombstones|${wm.since ? wm.since.ms : ""}`;
  return pagedReply(ctx, vendor.paging, listKey, (page) => {
    const { rows, total } = records.deletedPage(wm.since, page.offset, page.limit);
    const items = rows.map((r) => {
      const resource = vendor.resources.find((x) => x.name === r.entity)!;
      return JSON.stringify(feed.entry(d, { id: wireId(resource, r.id), entity: r.entity, deletedAt: formatTime(r.deletedMs!, vendor.clock.format, r.id, recordZone(vendor.clock, r.data)) }));
    });
    return { json: items.join(","), count: items.length, total };
  });
}
