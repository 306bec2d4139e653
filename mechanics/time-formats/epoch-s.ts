/**
 * @module time-formats/epoch-s
 * Integer seconds since the Unix epoch.
 */
import { defineTimeFormat, parseInteger } from "./define.ts";

export const epochS = defineTimeFormat({
  name: "epoch_s",
  format: (ms) => Math.floor(ms / 1000),
  parse: (raw) => {
    const n = parseInteger(raw);
    return n === null ? null : n * 1000;
  },
  docs: { describe: () => "integer seconds since the Unix epoch", schema: { type: "integer", format: "unix-s" } },
});
