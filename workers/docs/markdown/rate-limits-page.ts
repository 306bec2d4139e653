import type { DocModel } from "../../../mechanics/kit/doc-model.ts";
import { retryStyle } from "./index-page.ts";

/** `rate-limits.md`. */
export function rateLimitsPage(m: DocModel): string {
  const rl = m.rateLimit!;
  const lines = [
    "# Rate limits",
    "",
    `Each client may make ${rl.limit} requests; the next one is refused with \`429 Too Many Requests\` and the quota is closed for ${rl.cooldownS} seconds, then starts again.`,
    "",
    `The wait is given ${retryStyle(rl.retryAfter)}. Wait at least that long before retrying.`,
    "",
  ];
  if (rl.headers === "x-ratelimit") lines.push("Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds).", "");
  if (rl.headers === "ietf") lines.push("Every response carries `RateLimit-Policy` and `RateLimit` headers (IETF draft format).", "");
  return lines.join("\n");
}
