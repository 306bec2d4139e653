/**
 * @module snapshot
 * Ground truth of one role: every record as the vendor serves it (with every
 * optional field on), with its deletion state, in list order.
 */
import type { Snapshot } from "../../evidence/verdict.ts";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { serializeRecord } from "../engine/protocol/serialize.ts";
import type { WorldConfig } from "../engine/world-config.ts";

export function takeSnapshot(sql: SqlStorage, vendor: Vendor, config: WorldConfig): Snapshot {
  const all = new URLSearchParams();
  for (const r of vendor.resources) for (const f of r.fields) if (f.onlyWith) all.set(f.onlyWith.param, f.onlyWith.value);
  const entities: Snapshot["entities"] = {};
  for (const r of vendor.resources) {
    entities[r.name] = sql
      .exec("SELECT id, data, deleted_ms FROM records WHERE entity = ? ORDER BY seq", r.name)
      .toArray()
      .map((row) => {
        const deletedMs = (row.deleted_ms as number | null) ?? null;
        return { id: row.id as string, deleted: deletedMs !== null, record: serializeRecord(vendor, r, { id: row.id as string, data: JSON.parse(row.data as string), deletedMs }, all) };
      });
  }
  return { checkpoint: config.checkpoint, epoch: config.epoch, entities };
}
