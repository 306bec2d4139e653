import type { Resource } from "../../../declarations/schema/vendor.ts";
import type { Write } from "../../../declarations/schema/writes.ts";
import { vendorNow } from "../data/clock.ts";
import { recordId, wireId } from "../data/ids.ts";
import type { HandlerContext } from "../handler-context.ts";
import { json, rpcFailure, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import type { RecordRow } from "../store/records.ts";
import { IdempotencyLedger } from "./idempotency.ts";
import { embeddedFor, servedTag } from "./embeds.ts";
import { serializeRecord } from "./serialize.ts";
import { validateInputs, type FieldError } from "./validate-input.ts";
import { isRefusal, type ReceivedFile } from "../../../mechanics/uploads/index.ts";
import { acceptForLater } from "./accepted.ts";
import { createdUploadValues, readUploadCall, refusalReply } from "./uploads.ts";

function failure(ctx: HandlerContext, write: Write, status: number, code: string, message: string, fieldErrors?: FieldError[]): Reply {
  const extra = fieldErrors ? { [ctx.vendor.errors.fieldErrorsField]: fieldErrors } : {};
  if (write.errors === "rpc-200") return rpcFailure(ctx.vendor, code, message, extra);
  return vendorError(ctx.vendor, status, code, message, extra);
}

function success(ctx: HandlerContext, write: Write, status: number, resource: Resource, row: RecordRow): Reply {
  const embedded = embeddedFor(ctx, resource, [row.id]).get(row.id);
  const record = { ...serializeRecord(ctx.vendor, resource, row, ctx.req.query), ...embedded };
  if (write.errors === "rpc-200") return json(200, { [ctx.vendor.errors.rpcOkField]: true, [resource.idField]: wireId(resource, row.id), record });
  return json(status, record, { etag: servedTag(row, embedded) });
}

/** Serves one declared write endpoint: idempotency, validation, then the change. */
export function handleWrite(ctx: HandlerContext, write: Write): Reply {
  const { req } = ctx;
  const ledger = new IdempotencyLedger(ctx.sql);
  const key = ledger.keyOf(write, req.headers, req.body);
  ctx.notes.idempotencyKey = key;
  if (key) {
    const replayed = ledger.replay(write, key, req.nowMs);
    if (replayed) return replayed;
  }
  const reply = apply(ctx, write);
  if (key && reply.status < 500) ledger.remember(write, key, reply, req.nowMs);
  const committed = reply.status < 400 && !(write.errors === "rpc-200" && (reply.body as Record<string, unknown>)?.[ctx.vendor.errors.rpcOkField] === false);
  const fault = committed ? ctx.faults.afterCommit(write.name) : null;
  if (fault) {
    ctx.notes.faults.push(fault.fault);
    return fault.reply;
  }
  return reply;
}

/** The write's body: parsed JSON, or what its upload style reads from it (inputs and a file). */
function readBody(ctx: HandlerContext, write: Write): { body: Record<string, unknown>; file: ReceivedFile | null } | Reply {
  if (write.upload) {
    const read = readUploadCall(ctx, write);
    return isRefusal(read) ? refusalReply(ctx, read) : { body: read.inputs, file: read.file };
  }
  if (ctx.req.bodyInvalid) return failure(ctx, write, 400, "invalid_body", "request body must be a JSON object");
  return { body: ctx.req.body ?? {}, file: null };
}

function apply(ctx: HandlerContext, write: Write): Reply {
  const { vendor, req, records } = ctx;
  const read = readBody(ctx, write);
  if ("status" in read) return read;
  const { body, file } = read;
  const resource = vendor.resources.find((r) => r.name === write.entity)!;
  const now = vendorNow(vendor.clock, ctx.config.checkpoint, ctx.requestsInEpoch);
  const visibleAt = write.listLagRequests > 0 ? req.seq + write.listLagRequests : 0;
  if (write.op === "bulk-create") return bulkCreate(ctx, write, resource, body, now, visibleAt);
  const errors = validateInputs(write, body, records);
  if (errors.length) return failure(ctx, write, 422, "validation_failed", errors.map((e) => `${e.field} ${e.message}`).join("; "), errors);
  const missing = write.op === "update" ? missingTarget(ctx, resource) : missingParent(ctx, write, resource, body);
  if (missing !== null) return failure(ctx, write, 404, "not_found", `${write.op === "update" ? resource.name : resource.parent} ${missing} does not exist`);
  const refused = ctx.faults.beforeWrite(write.name, 1);
  if (refused) {
    ctx.notes.faults.push(refused.fault);
    return refused.reply;
  }
  if (write.accepted) return acceptForLater(ctx, write, body);
  const taken = write.op === "create" ? ctx.faults.defersWrite(write.name) : null;
  if (taken) {
    ctx.notes.faults.push(taken.fault);
    return acceptForLater(ctx, write, body, taken.accepted);
  }
  if (write.op === "update") {
    const lapsed = lapse(ctx, write, resource, now);
    if (lapsed) return lapsed;
    return update(ctx, write, resource, body, now, visibleAt);
  }
  const created = insertCreated(ctx, write, resource, body, now, visibleAt, write.upload ? (id) => createdUploadValues(ctx, write, file, id) : undefined);
  if ("missingParent" in created) return failure(ctx, write, 404, "not_found", `${resource.parent} ${created.missingParent} does not exist`);
  return success(ctx, write, write.successStatus, resource, created);
}

/** Applies a validated write's change now, without faults: how an accepted write lands. */
export function applyChange(ctx: HandlerContext, write: Write, body: Record<string, unknown>): void {
  const resource = ctx.vendor.resources.find((r) => r.name === write.entity)!;
  const now = vendorNow(ctx.vendor.clock, ctx.config.checkpoint, ctx.requestsInEpoch);
  const visibleAt = write.listLagRequests > 0 ? ctx.req.seq + write.listLagRequests : 0;
  if (write.op === "update") update(ctx, write, resource, body, now, visibleAt);
  else insertCreated(ctx, write, resource, body, now, visibleAt);
}

/** The id an update names, when no live record has it (or null when one does). */
function missingTarget(ctx: HandlerContext, resource: Resource): string | null {
  const id = ctx.params.id;
  const row = ctx.records.get(resource.name, id);
  return !row || row.deletedMs !== null ? id : null;
}

/** Bulk create: each item validated and created on its own; 207 with one result per item. */
function bulkCreate(ctx: HandlerContext, write: Write, resource: Resource, body: Record<string, unknown>, now: number, visibleAt: number): Reply {
  const items = body[write.itemsField];
  if (!Array.isArray(items) || items.length === 0) return failure(ctx, write, 400, "invalid_body", `${write.itemsField} must be a non-empty array`);
  if (items.length > write.maxItems) return failure(ctx, write, 413, "too_many_items", `at most ${write.maxItems} items per call`);
  const capped = ctx.faults.beforeWrite(write.name, items.length);
  if (capped) {
    ctx.notes.faults.push(capped.fault);
    return capped.reply;
  }
  const results = items.map((item, index) => {
    if (!item || typeof item !== "object" || Array.isArray(item)) return { index, status: 422, errors: [{ field: "(item)", message: "must be an object" }] };
    const errors = validateInputs(write, item as Record<string, unknown>, ctx.records);
    if (errors.length) return { index, status: 422, errors };
    const missing = missingParent(ctx, write, resource, item as Record<string, unknown>);
    if (missing !== null) return { index, status: 404, errors: [{ field: write.parentFrom!, message: "does not exist" }] };
    const phantom = ctx.faults.bulkItem(write.name);
    if (phantom) {
      ctx.notes.faults.push(phantom.fault);
      return { index, status: 201, [resource.idField]: wireId(resource, recordId(resource, ctx.records.reserveIndex(resource.name), now, ctx.config.seed)) };
    }
    const created = insertCreated(ctx, write, resource, item as Record<string, unknown>, now, visibleAt) as RecordRow;
    return { index, status: 201, [resource.idField]: wireId(resource, created.id) };
  });
  return json(207, { results });
}

/** The parent a create names, when it does not exist (or null when it does, or the entity has none). */
function missingParent(ctx: HandlerContext, write: Write, resource: Resource, body: Record<string, unknown>): string | null {
  if (!resource.parent) return null;
  const parent = write.parentFrom === ":parentId" ? ctx.params.parentId : String(body[write.parentFrom!]);
  const p = ctx.records.get(resource.parent, parent);
  return !p || p.deletedMs !== null ? parent : null;
}

/**
 * Creates one record from write input; fields the write does not take get
 * their generator's neutral value, then `extra` (an upload's values) by id.
 */
function insertCreated(
  ctx: HandlerContext,
  write: Write,
  resource: Resource,
  body: Record<string, unknown>,
  now: number,
  visibleAt: number,
  extra?: (id: string) => Record<string, unknown>,
): RecordRow | { missingParent: string } {
  const { records } = ctx;
  let parent: string | null = null;
  if (resource.parent) {
    parent = write.parentFrom === ":parentId" ? ctx.params.parentId : String(body[write.parentFrom!]);
    const p = records.get(resource.parent, parent);
    if (!p || p.deletedMs !== null) return { missingParent: parent };
  }
  const index = records.nextIndex(resource.name);
  const id = recordId(resource, index, now, ctx.config.seed);
  const data: Record<string, unknown> = { [resource.idField]: id };
  for (const f of resource.fields) {
    if (f.name === resource.idField) continue;
    const g = f.gen;
    if (write.inputs.some((i) => i.name === f.name) && body[f.name] !== undefined) data[f.name] = body[f.name];
    else if (g.gen === "createdAt" || g.gen === "updatedAt") data[f.name] = now;
    else if (g.gen === "parent") data[f.name] = parent;
    else if (g.gen === "const") data[f.name] = g.value;
    else if (g.gen === "stage") data[f.name] = resource.stages?.[0] ?? null;
    else data[f.name] = null;
  }
  if (extra) Object.assign(data, extra(id));
  const row: RecordRow = { entity: resource.name, id, seq: records.nextSeq(), parent, data, updatedMs: now, deletedMs: null, visibleAt, listedData: null, version: 1 };
  records.insert(row);
  ctx.changed(resource.name, "created", row);
  return row;
}

/** An armed fault that finds the update's record moved on by itself: the record changes as it says, and the call is refused. */
function lapse(ctx: HandlerContext, write: Write, resource: Resource, now: number): Reply | null {
  if (!ctx.faults.watchesUpdates()) return null;
  const row = ctx.records.get(resource.name, ctx.params.id);
  if (!row || row.deletedMs !== null) return null;
  const out = ctx.faults.beforeUpdate(write.name, resource.name, row.id, row.data);
  if (!out) return null;
  ctx.notes.faults.push(out.fault);
  if (out.set) {
    const data = { ...row.data, ...out.set };
    for (const f of resource.fields) if (f.gen.gen === "updatedAt") data[f.name] = now;
    const next: RecordRow = { ...row, data, updatedMs: now, version: row.version + 1, visibleAt: 0, listedData: null };
    ctx.records.update(next);
    ctx.changed(resource.name, "updated", next);
  }
  return out.reply;
}

function update(ctx: HandlerContext, write: Write, resource: Resource, body: Record<string, unknown>, now: number, visibleAt: number): Reply {
  const { records, req } = ctx;
  const id = ctx.params.id;
  const row = records.get(resource.name, id);
  if (!row || row.deletedMs !== null) return failure(ctx, write, 404, "not_found", `${resource.name} ${id} does not exist`);
  if (write.ifMatch) {
    const ifMatch = req.headers.get("if-match");
    if (!ifMatch) return failure(ctx, write, 428, "precondition_required", "If-Match with the record's ETag is required");
    const current = servedTag(row, embeddedFor(ctx, resource, [row.id]).get(row.id));
    if (ifMatch.trim() !== current && ifMatch.trim() !== "*") return failure(ctx, write, 412, "precondition_failed", "the record has changed since it was read");
  }
  const before = row.data;
  const data = { ...row.data };
  for (const input of write.inputs) if (body[input.name] !== undefined) data[input.name] = body[input.name];
  for (const f of resource.fields) if (f.gen.gen === "updatedAt") data[f.name] = now;
  const next: RecordRow = { ...row, data, updatedMs: now, version: row.version + 1, visibleAt, listedData: visibleAt > 0 ? before : null };
  records.update(next);
  ctx.changed(resource.name, "updated", next);
  return success(ctx, write, 200, resource, next);
}
