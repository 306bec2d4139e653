import { deleteFlagField } from "../../../mechanics/deletes/index.ts";
import type { Resource, Vendor } from "../../../declarations/schema/vendor.ts";
import { formatTime, recordZone } from "../data/clock.ts";
import { wireId } from "../data/ids.ts";
import type { RecordRow } from "../store/records.ts";
import type { QueryReader } from "../../../mechanics/kit/query-params.ts";

/** Renders a stored record as the vendor serves it to this request. */
export function serializeRecord(
  vendor: Vendor,
  resource: Resource,
  row: Pick<RecordRow, "id" | "data" | "deletedMs">,
  query: QueryReader,
  renames?: Map<string, { to: string }>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { [resource.idField]: wireId(resource, row.id) };
  const zone = recordZone(vendor.clock, row.data);
  for (const f of resource.fields) {
    if (f.name === resource.idField) continue;
    if (f.onlyWith && query.get(f.onlyWith.param) !== f.onlyWith.value) continue;
    const value = row.data[f.name];
    if (f.type === "timestamp" && typeof value === "number") out[f.name] = formatTime(value, vendor.clock.format, row.id, zone);
    else if (f.gen.gen === "ref" && typeof value === "string") {
      const target = vendor.resources.find((r) => r.name === (f.gen as { entity: string }).entity)!;
      out[f.name] = wireId(target, value);
    } else if (f.gen.gen === "parent" && typeof value === "string" && resource.parent) {
      out[f.name] = wireId(vendor.resources.find((r) => r.name === resource.parent)!, value);
    } else out[f.name] = value ?? null;
  }
  const flag = deleteFlagField(vendor.deletes);
  if (flag) out[flag] = row.deletedMs !== null;
  if (!renames?.size) return out;
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [renames.get(`${resource.name}.${k}`)?.to ?? k, v]));
}

/** Which `onlyWith` fields this query turns on, as a cache key fragment ("" when the resource has none). */
export function viewKey(resource: Resource, query: QueryReader): string {
  let key = "";
  for (const f of resource.fields) if (f.onlyWith) key += query.get(f.onlyWith.param) === f.onlyWith.value ? "1" : "0";
  return key;
}

/** Strong ETag of a record version. */
export function etagOf(row: Pick<RecordRow, "id" | "version">): string {
  return `"${row.id}-v${row.version}"`;
}
