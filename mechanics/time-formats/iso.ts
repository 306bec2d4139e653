/**
 * @module time-formats/iso
 * ISO 8601 strings in UTC, whole seconds (`2024-03-04T08:00:00Z`).
 */
import { defineTimeFormat, parseIsoInstant } from "./define.ts";

export const isoUtc = defineTimeFormat({
  name: "iso",
  format: (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"),
  parse: parseIsoInstant,
  docs: { describe: () => "ISO 8601 strings in UTC (`2024-03-04T08:00:00Z`)", schema: { type: "string", format: "date-time" } },
});
