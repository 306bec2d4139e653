import type { DocModel } from "../model.ts";
import { retryStyle } from "./index-page.ts";

const seconds = (n: number) => `${n} second${n === 1 ? "" : "s"}`;

/** `rate-limits.md`. */
export function rateLimitsPage(m: DocModel): string {
  const rl = m.rateLimit!;
  const lines = [
    "# Rate limits",
    "",
    `Each set of credentials may make ${rl.limit} requests. The request that uses up the quota closes it for ${seconds(rl.cooldownS)}: until then requests are refused with \`429 Too Many Requests\`; after it the quota starts again.`,
    "",
    `The wait is given ${retryStyle(rl.retryAfter)}. Wait at least that long before retrying.`,
    "",
  ];
  if (rl.headers === "x-ratelimit")
    lines.push(
      "Every response carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds): when `X-RateLimit-Remaining` reaches 0, waiting `X-RateLimit-Reset` seconds is enough.",
      "",
    );
  if (rl.headers === "ietf") lines.push("Every response carries `RateLimit-Policy` and `RateLimit` headers (IETF draft format).", "");
  return lines.join("\n");
}
