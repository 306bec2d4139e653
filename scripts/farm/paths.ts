import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (two levels above this file). */
export function projectRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
}
