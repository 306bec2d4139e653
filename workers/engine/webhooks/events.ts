import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { StateRecord } from "../data/generate.ts";
import { serializeRecord } from "../protocol/serialize.ts";

/** A change the vendor announces: `<entity>.<created|updated|deleted>`. */
export interface VendorEvent {
  type: string;
  entity: string;
  recordId: string;
  /** When it happened, on the data clock. */
  atMs: number;
  /** The record as served (every optional field on), or null for deletes. */
  record: Record<string, unknown> | null;
  /** Fields at the top level of the event body, beside `type` (an accepted write's request id). */
  extra?: Record<string, unknown>;
  /** An update's record as it was before, and when that version was made (a fault may deliver it late). */
  previous?: { atMs: number; record: Record<string, unknown> };
}

/** A query that turns on every optional field of every resource. */
export function allFlags(vendor: Vendor): URLSearchParams {
  const q = new URLSearchParams();
  for (const r of vendor.resources) for (const f of r.fields) if (f.onlyWith) q.set(f.onlyWith.param, f.onlyWith.value);
  return q;
}

/** The events a checkpoint's mutations give rise to, in the order they happened. */
export function checkpointEvents(vendor: Vendor, before: StateRecord[], after: StateRecord[]): VendorEvent[] {
  const hooks = vendor.webhooks;
  if (!hooks) return [];
  const flags = allFlags(vendor);
  const prior = new Map(before.map((r) => [`${r.entity}/${r.id}`, r]));
  const events: VendorEvent[] = [];
  for (const r of after) {
    if (!hooks.entities.includes(r.entity)) continue;
    const resource = vendor.resources.find((x) => x.name === r.entity)!;
    const record = () => serializeRecord(vendor, resource, r, flags);
    const b = prior.get(`${r.entity}/${r.id}`);
    if (!b) {
      events.push({ type: `${r.entity}.created`, entity: r.entity, recordId: r.id, atMs: r.updatedMs, record: record() });
      if (r.deletedMs !== null) events.push({ type: `${r.entity}.deleted`, entity: r.entity, recordId: r.id, atMs: r.deletedMs, record: null });
    } else if (r.deletedMs !== null && b.deletedMs === null) {
      events.push({ type: `${r.entity}.deleted`, entity: r.entity, recordId: r.id, atMs: r.deletedMs, record: null });
    } else if (r.deletedMs === null && r.updatedMs !== b.updatedMs) {
      events.push({
        type: `${r.entity}.updated`,
        entity: r.entity,
        recordId: r.id,
        atMs: r.updatedMs,
        record: record(),
        previous: { atMs: b.updatedMs, record: serializeRecord(vendor, resource, b, flags) },
      });
    }
  }
  return events.sort((a, b) => a.atMs - b.atMs || (a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0));
}
