/**
 * @module time-formats/epoch-ms
 * Integer milliseconds since the Unix epoch.
 */
import { defineTimeFormat, parseInteger } from "./define.ts";

export const epochMs = defineTimeFormat({
  name: "epoch_ms",
  format: (ms) => ms,
  parse: parseInteger,
  docs: { describe: () => "integer milliseconds since the Unix epoch", schema: { type: "integer", format: "unix-ms" } },
});
