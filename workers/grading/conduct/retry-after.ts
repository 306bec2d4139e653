import { soft, type ConductContext, type ConductResult } from "./context.ts";

/** Soft: after a rate-limited answer, the same request waits at least the advertised time. */
export function retryAfterHonored(ctx: ConductContext): ConductResult {
  const limited = ctx.requests.filter((r) => r.rateLimited && r.retryAfter !== null);
  if (!limited.length) return null;
  for (const r of limited) {
    const next = ctx.requests.find((x) => x.seq > r.seq && x.epoch === r.epoch && x.method === r.method && x.path === r.path);
    if (next && next.ts - r.ts < r.retryAfter! - 0.05) {
      return soft("retry_after_honored", false, `request #${next.seq} came ${(next.ts - r.ts).toFixed(2)}s after a 429 asking for ${r.retryAfter}s`);
    }
  }
  return soft("retry_after_honored", true, `${limited.length} rate-limited answers, each waited out`);
}
