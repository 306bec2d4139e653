import type { Vendor } from "../../../declarations/schema/vendor.ts";

/**
 * Most records a vendor seeds at a scale (subresources counted at their
 * per-parent maximum), known before anything is built: world creation refuses
 * a world over the farm's bound without spending the time to build it.
 */
export function seededRecordBound(vendor: Vendor, scale: number): number {
  const byEntity = new Map<string, number>();
  for (const r of vendor.resources) {
    const n = typeof r.count === "number" ? r.count * scale : (byEntity.get(r.parent!) ?? 0) * r.count.perParent[1];
    byEntity.set(r.name, n);
  }
  const created = vendor.timeline.flatMap((c) => c.mutations).reduce((sum, m) => sum + (m.op === "create" || m.op === "regenerate" ? m.count : m.op === "end" ? m.readd : 0), 0);
  return [...byEntity.values()].reduce((a, b) => a + b, 0) + created;
}
