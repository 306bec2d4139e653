import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import type { Resource } from "../../../declarations/schema/vendor.ts";
import type { HandlerContext } from "../handler-context.ts";
import { json, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { RawJson } from "../http/raw-json.ts";
import type { PageRow } from "../store/page-row.ts";
import { embeddedFor, servedTag } from "./embeds.ts";
import { etagOf, serializeRecord, viewKey } from "./serialize.ts";

/** GET on a resource's single-record path. */
export function getRecord(ctx: HandlerContext, resource: Resource): Reply {
  const { vendor, records } = ctx;
  const id = ctx.params.id;
  const stored = records.getText(resource.name, id);
  if (!stored) return vendorError(vendor, 404, "not_found", `${resource.name} ${id} does not exist`);
  const deleted = stored.deleted ? deleteStyle(vendor.deletes).read : null;
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
  if (!resource.embeds.length && !ctx.faults.watchesReads()) return servedText(ctx, resource, stored, renames, ifNoneMatch);
  const row = records.get(resource.name, id)!;
  const embedded = embeddedFor(ctx, resource, [row.id], renames).get(row.id);
  const body = { ...serializeRecord(vendor, resource, row, ctx.req.query, renames), ...embedded };
  const tag = servedTag(row, embedded);
  ctx.faults.afterRead(resource.name, id, body, tag, ctx.req.nowMs);
  if (matchesTag(ifNoneMatch, tag)) return { status: 304, headers: { etag: tag }, body: null };
  return json(200, body, { etag: tag });
}

/**
 * A record with nothing embedded, for a read no fault watches: its JSON is
 * cached per version and view (renames are fixed for the engine's life), so a
 * repeated read neither parses nor serialises it.
 */
function servedText(ctx: HandlerContext, resource: Resource, stored: PageRow, renames: Map<string, { to: string }>, ifNoneMatch: string | null): Reply {
  const tag = etagOf(stored);
  if (matchesTag(ifNoneMatch, tag)) return { status: 304, headers: { etag: tag }, body: null };
  const variant = `get|${resource.name}|${stored.deleted ? 1 : 0}|${viewKey(resource, ctx.req.query)}`;
  let text = ctx.records.rowJson.get(stored, variant);
  if (text === undefined) {
    const data = JSON.parse(stored.text) as Record<string, unknown>;
    text = JSON.stringify(serializeRecord(ctx.vendor, resource, { id: stored.id, data, deletedMs: stored.deleted ? 1 : null }, ctx.req.query, renames));
    ctx.records.rowJson.set(stored, variant, text);
  }
  return json(200, new RawJson(text), { etag: tag });
}

/** Whether an `If-None-Match` value names the tag (or is `*`). */
function matchesTag(ifNoneMatch: string | null, tag: string): boolean {
  return ifNoneMatch !== null && ifNoneMatch.split(",").some((t) => t.trim() === tag || t.trim() === "*");
}
