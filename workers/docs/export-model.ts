/**
 * @module export-model
 * The exports part of the documentation model, from the declaration and the
 * truthful docs of the exported resources' fields.
 */
import type { Resource, Vendor } from "../../declarations/schema/vendor.ts";
import type { DocExports } from "../../mechanics/exports/doc-model.ts";
import { COLUMN_WRITINGS } from "../../mechanics/exports/define.ts";
import { exportStyle } from "../../mechanics/exports/index.ts";
import { incrementalStyle } from "../../mechanics/incremental/index.ts";
import type { DocResource } from "./model.ts";
import { timeFormat } from "../../mechanics/time-formats/index.ts";

/** What the truthful docs say about a vendor's exports; `docOf` gives a resource's truthful docs. */
export function docExports(vendor: Vendor, docOf: (r: Resource) => DocResource): DocExports | undefined {
  const e = vendor.exports;
  if (!e) return undefined;
  const exportables = exportStyle(e).exportables(e);
  const inc = vendor.incremental;
  const since =
    inc && exportables.some((x) => x.incremental)
      ? {
          name: incrementalStyle(inc).param(inc),
          description: `${incrementalStyle(inc).docs.describe(inc)} A timestamp as the API writes them: ${timeFormat(vendor.clock.format).docs.describe(vendor.clock)}.`,
        }
      : null;
  return {
    declaration: structuredClone(e),
    since,
    timeSchema: { ...timeFormat(vendor.clock.format).docs.schema },
    exports: exportables.map((x) => {
      const r = docOf(vendor.resources.find((y) => y.name === x.resource)!);
      return {
        name: x.name,
        entity: r.name,
        plural: r.plural,
        incremental: x.incremental,
        columns: x.columns.map((c) => {
          const f = r.fields.find((y) => y.name === c.field)!;
          return { header: c.header, field: c.field, type: f.type, description: f.description, nullable: f.nullable, ...(c.written ? { written: COLUMN_WRITINGS[c.written] } : {}) };
        }),
      };
    }),
  };
}
