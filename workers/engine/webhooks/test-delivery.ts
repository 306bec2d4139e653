/**
 * @module test-delivery
 * The vendor's test-delivery route (`webhooks.testDelivery`): `POST <path>`
 * with `{"<typeField>": "<entity>.<created|updated|deleted>"}` (or an accepted
 * write's refusal event, `<entity>.<refusedOp>`) announces one
 * event of that type, built from a record of the world, which the dispatcher
 * then signs, delivers, retries and dead-letters like any other event. It goes
 * only to the receiver registered for the world (never to a URL a client
 * subscribed), and is refused in the vendor's own error shape when the type is
 * not one of its events or no receiver is registered.
 */
import { json, vendorError, type Reply } from "../../../mechanics/kit/reply.ts";
import { serializeRecord } from "../protocol/serialize.ts";
import type { HandlerContext } from "../handler-context.ts";
import { allFlags, type VendorEvent } from "./events.ts";

const OPS = ["created", "updated", "deleted"] as const;

/** The accepted writes a vendor may turn down as they land, with their refusal event type. */
function refusals(vendor: HandlerContext["vendor"]): { type: string; write: (typeof vendor.writes)[number] }[] {
  const entities = vendor.webhooks?.entities ?? [];
  return vendor.writes.filter((w) => w.accepted?.refusedOp && entities.includes(w.entity)).map((w) => ({ type: `${w.entity}.${w.accepted!.refusedOp}`, write: w }));
}

/** Every event type a vendor's webhooks announce, in the order its docs list them (refusal events of accepted writes last). */
export function eventTypes(entities: readonly string[], refusalTypes: readonly string[] = []): string[] {
  return [...entities.flatMap((e) => OPS.map((op) => `${e}.${op}`)), ...refusalTypes];
}

/**
 * The event a test delivery of `type` announces: a created or updated event
 * carries the entity's first live record; a deleted event names the first
 * record the world has deleted, else the first live one. Null when the entity
 * has no record at all. A refusal event carries the first live record, the
 * request id numbered 0 and a sample error.
 */
export function testEvent(ctx: HandlerContext, type: string): VendorEvent | null {
  const [entity, op] = type.split(".") as [string, (typeof OPS)[number]];
  const resource = ctx.vendor.resources.find((r) => r.name === entity)!;
  const refusal = refusals(ctx.vendor).find((r) => r.type === type);
  if (refusal) {
    const live = ctx.records.first(entity, false);
    if (!live) return null;
    const a = refusal.write.accepted!;
    const extra = { [a.requestIdField]: `${a.requestIdPrefix}000000`, error: { code: "test_event", message: `A test event: no ${refusal.write.name} call was turned down.` } };
    return { type, entity, recordId: live.id, atMs: live.updatedMs, record: serializeRecord(ctx.vendor, resource, live, allFlags(ctx.vendor)), extra };
  }
  const row = (op === "deleted" ? ctx.records.first(entity, true) : null) ?? ctx.records.first(entity, false);
  if (!row) return null;
  if (op === "deleted") return { type, entity, recordId: row.id, atMs: row.deletedMs ?? row.updatedMs, record: null };
  return { type, entity, recordId: row.id, atMs: row.updatedMs, record: serializeRecord(ctx.vendor, resource, row, allFlags(ctx.vendor)) };
}

/** Serves the route; `deliver` queues the event and returns its id. */
export function serveTestDelivery(ctx: HandlerContext, deliver: (event: VendorEvent) => string): Reply {
  const hooks = ctx.vendor.webhooks!;
  const field = hooks.testDelivery!.typeField;
  const fieldErrors = ctx.vendor.errors.fieldErrorsField;
  if (ctx.req.bodyInvalid) return vendorError(ctx.vendor, 400, "invalid_body", "request body must be a JSON object");
  const types = eventTypes(
    hooks.entities,
    refusals(ctx.vendor).map((r) => r.type),
  );
  const type = ctx.req.body?.[field];
  if (typeof type !== "string" || !types.includes(type)) {
    const message = `${field} must be one of ${types.join(", ")}`;
    return vendorError(ctx.vendor, 422, "validation_failed", message, { [fieldErrors]: [{ field, message: typeof type === "string" ? `unknown event type "${type.slice(0, 100)}"` : "required" }] });
  }
  if (!ctx.config.webhookTarget) return vendorError(ctx.vendor, 409, "no_webhook_endpoint", "no webhook receiver is registered for this world, so a test event has nowhere to go");
  const event = testEvent(ctx, type);
  if (!event) return vendorError(ctx.vendor, 409, "no_record", `there is no ${type.split(".")[0]} to build a test event from`);
  return json(202, { id: deliver(event), type });
}
