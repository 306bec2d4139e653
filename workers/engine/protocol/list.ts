import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { Resource } from "../../../declarations/schema/vendor.ts";
import type { HandlerContext } from "../handler-context.ts";
import { vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { readWatermark } from "./incremental.ts";
import { pagedReply } from "./list-response.ts";
import { embeddedFor } from "./embeds.ts";
import { serializeRecord, viewKey } from "./serialize.ts";
import { readWindow } from "./windows.ts";
import { rowVariants, variantOf } from "./row-json-cache.ts";

/**
 * GET on a resource's list path; a legacy list (`truncateAt`) ends silently
 * after that many records, a defective one (`skip`) skips records between pages.
 */
export function listRecords(ctx: HandlerContext, resource: Resource, truncateAt = Number.POSITIVE_INFINITY, skip = 0): Reply {
  const { vendor, req, records } = ctx;
  let parent: string | undefined;
  if (resource.parent) {
    parent = ctx.params.parentId;
    const p = records.get(resource.parent, parent);
    if (!p || (p.deletedMs !== null && !deleteStyle(vendor.deletes).listsDeleted)) return vendorError(vendor, 404, "not_found", `${resource.parent} ${parent} does not exist`);
  }
  const wm = resource.incremental ? readWatermark(vendor, req.query) : { ok: true as const };
  if (!wm.ok) return vendorError(vendor, 400, "invalid_parameter", wm.message, { parameter: vendor.incremental!.param });
  const win = readWindow(ctx, resource);
  if (win && !win.ok) return vendorError(vendor, 400, "invalid_parameter", win.message, { parameter: win.param });
  const filter = {
    entity: resource.name,
    parent,
    includeDeleted: deleteStyle(vendor.deletes).listsDeleted,
    visibleTo: req.seq,
    since: wm.since,
    range: win?.range,
  };
  const listKey = `${resource.name}|${parent ?? ""}|${wm.since ? wm.since.ms : ""}${win ? `|${win.range.fromMs}|${win.range.toMs}` : ""}`;
  const view = viewKey(resource, req.query);
  const variants = rowVariants(resource.name, view);
  const renames = ctx.faults.renames(ctx.config.checkpoint);
  for (const [key, r] of renames) if (key.startsWith(`${resource.name}.`)) ctx.notes.faults.push(r.fault);
  // A page is the same for every request while its records stand, unless it embeds children, a fault renames fields or it reads a window.
  const cacheable = !resource.embeds.length && !renames.size && !win;
  return pagedReply(
    ctx,
    resource.paging ?? vendor.paging,
    listKey,
    (page) => {
      const limit = Math.max(0, Math.min(page.limit, truncateAt - page.offset));
      const version = cacheable ? records.listingVersion(req.seq) : null;
      const key = `${listKey}|${wm.since?.inclusive ?? ""}|${view}|${truncateAt}|${page.offset}|${limit}`;
      const cached = version === null ? undefined : ctx.records.pageItems.get(key, version);
      if (cached) return cached;
      const rows = records.pageText(filter, page.offset, limit);
      // Embedded children change without their parent's version: such rows are not cached.
      const embedded = embeddedFor(
        ctx,
        resource,
        rows.map((r) => r.id),
        renames,
      );
      const items = rows.map((r) => {
        const variant = variantOf(variants, r);
        let json = embedded.size ? undefined : ctx.records.rowJson.get(r, variant);
        if (json === undefined) {
          const data = JSON.parse(r.text) as Record<string, unknown>;
          json = JSON.stringify({ ...serializeRecord(vendor, resource, { id: r.id, data, deletedMs: r.deleted ? 1 : null }, req.query, renames), ...embedded.get(r.id) });
          if (!embedded.size) ctx.records.rowJson.set(r, variant, json);
        }
        return json;
      });
      const built = { json: items.join(","), count: items.length, total: Math.min(records.count(filter), truncateAt) };
      if (version !== null) ctx.records.pageItems.set(key, version, built);
      return built;
    },
    resource.name,
    skip,
    win?.report,
  );
}
