/**
 * @module env-file
 * The environment an attempt hands its agent, as a file a POSIX shell can
 * source (`set -a; . ./environment.env`).
 */
import { shellQuote } from "./lanes/exec-template.ts";

/** `KEY=value` lines; values are quoted when they need it. */
export function envFile(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => `${k}=${/^[A-Za-z0-9_./:@%+,=-]*$/.test(v) ? v : shellQuote(v)}\n`)
    .join("");
}
