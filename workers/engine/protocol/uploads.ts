/**
 * @module uploads
 * Writes that carry a file (`Write.upload`), whatever their style: reading
 * the create call through the style, the values the created record gets,
 * and the later request that sends the bytes to an upload URL. Upload URLs
 * name their record with a token bound to the world's seed, so a made-up or
 * altered URL finds nothing.
 */
import { createHash } from "node:crypto";
import type { Write } from "../../../declarations/schema/writes.ts";
import { json, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { isRefusal, type ReceivedBody, type ReceivedFile, type UploadRefusal, uploadRoute, uploadStyle } from "../../../mechanics/uploads/index.ts";
import { vendorNow } from "../data/clock.ts";
import { BODY_LIMIT_BYTES } from "../http/request-body.ts";
import type { HandlerContext } from "../handler-context.ts";
import type { RecordRow } from "../store/records.ts";
import { etagOf, serializeRecord } from "./serialize.ts";

/** The request body as upload styles read it. */
function received(ctx: HandlerContext): ReceivedBody {
  const { req } = ctx;
  return { contentType: req.headers.get("content-type") ?? "", bytes: req.bytes, json: req.bodyInvalid ? null : (req.body ?? {}) };
}

/** A refusal in the vendor's error shape (422s list the field). */
export function refusalReply(ctx: HandlerContext, r: UploadRefusal): Reply {
  const extra = r.field ? { [ctx.vendor.errors.fieldErrorsField]: [{ field: r.field, message: r.message }] } : {};
  return vendorError(ctx.vendor, r.status, r.code, r.message, extra);
}

/** Reads an upload write's create call: its inputs and the file it carries, or a refusal. */
export function readUploadCall(ctx: HandlerContext, write: Write): { inputs: Record<string, unknown>; file: ReceivedFile | null } | UploadRefusal {
  return uploadStyle(write.upload!).readCreate(write.upload!, received(ctx)) as { inputs: Record<string, unknown>; file: ReceivedFile | null } | UploadRefusal;
}

function signature(ctx: HandlerContext, entity: string, id: string): string {
  return createHash("sha256").update(`${ctx.config.seed}|${ctx.vendor.id}|${entity}|${id}`).digest("hex").slice(0, 20);
}

/** The values a created record gets from its upload (its file, or the URL its bytes go to). */
export function createdUploadValues(ctx: HandlerContext, write: Write, file: ReceivedFile | null, id: string): Record<string, unknown> {
  const route = uploadRoute(write.upload!);
  const url = route ? `${ctx.baseUrl}${route.path.replace(":token", encodeURIComponent(`${id}.${signature(ctx, write.entity, id)}`))}` : null;
  return uploadStyle(write.upload!).createdValues(write.upload!, { file, url });
}

/** The bytes of an upload arrive at its URL: the record takes what the style makes of them. */
export function receiveUpload(ctx: HandlerContext, write: Write): Reply {
  const { records, vendor } = ctx;
  const token = ctx.params.token ?? "";
  const dot = token.lastIndexOf(".");
  const id = token.slice(0, Math.max(0, dot));
  const row = dot > 0 && token.slice(dot + 1) === signature(ctx, write.entity, id) ? records.get(write.entity, id) : null;
  if (!row || row.deletedMs !== null) return vendorError(vendor, 404, "not_found", "no upload is waiting at this URL");
  const values = uploadStyle(write.upload!).receive!(write.upload!, row.data, received(ctx));
  if (isRefusal(values)) return refusalReply(ctx, values);
  const resource = vendor.resources.find((r) => r.name === write.entity)!;
  const now = vendorNow(vendor.clock, ctx.config.checkpoint, ctx.requestsInEpoch);
  const data = { ...row.data, ...values };
  for (const f of resource.fields) if (f.gen.gen === "updatedAt") data[f.name] = now;
  const next: RecordRow = { ...row, data, updatedMs: now, version: row.version + 1 };
  records.update(next);
  ctx.changed(resource.name, "updated", next);
  return json(200, serializeRecord(vendor, resource, next, ctx.req.query), { etag: etagOf(next) });
}

/** The cap a refused over-large body is told about: an upload route's own, or the engine's. */
export function bodyLimit(write: Write | null): { bytes: number; what: string } {
  return write?.upload ? { bytes: write.upload.maxBytes, what: "files" } : { bytes: BODY_LIMIT_BYTES, what: "request bodies" };
}
