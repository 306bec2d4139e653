import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { Resource } from "../../../declarations/schema/vendor.ts";
import type { HandlerContext } from "../handler-context.ts";
import { json, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { embeddedFor, servedTag } from "./embeds.ts";
import { serializeRecord } from "./serialize.ts";

/** GET on a resource's single-record path. */
export function getRecord(ctx: HandlerContext, resource: Resource): Reply {
  const { vendor, records } = ctx;
  const id = decodeURIComponent(ctx.params.id);
  const row = records.get(resource.name, id);
  if (!row) return vendorError(vendor, 404, "not_found", `${resource.name} ${id} does not exist`);
  const deleted = row.deletedMs !== null ? deleteStyle(vendor.deletes).read : null;
  if (deleted && !deleted.serve) return vendorError(vendor, deleted.status, deleted.code, deleted.message(`${resource.name} ${id}`));
  // A client that revalidates (no-cache, max-age=0, or a conditional request) reaches the origin, never a stale copy.
  const ifNoneMatch = ctx.req.headers.get("if-none-match");
  const revalidates = /no-cache|max-age=0/i.test(ctx.req.headers.get("cache-control") ?? "") || ifNoneMatch !== null;
  const cached = ctx.faults.onRead(resource.name, id, revalidates, ctx.req.nowMs);
  if (cached) {
    ctx.notes.faults.push(cached.fault);
    return cached.reply;
  }
  const renames = ctx.faults.renames(ctx.config.checkpoint);
  for (const [key, r] of renames) if (key.startsWith(`${resource.name}.`)) ctx.notes.faults.push(r.fault);
  const embedded = embeddedFor(ctx, resource, [row.id], renames).get(row.id);
  const body = { ...serializeRecord(vendor, resource, row, ctx.req.query, renames), ...embedded };
  const tag = servedTag(row, embedded);
  ctx.faults.afterRead(resource.name, id, body, tag, ctx.req.nowMs);
  if (ifNoneMatch !== null && ifNoneMatch.split(",").some((t) => t.trim() === tag || t.trim() === "*")) return { status: 304, headers: { etag: tag }, body: null };
  return json(200, body, { etag: tag });
}
