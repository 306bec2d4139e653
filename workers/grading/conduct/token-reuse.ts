import { tokenMint } from "../../../mechanics/auth/index.ts";
import { soft, type ConductContext, type ConductResult } from "./context.ts";

/** Soft: tokens are reused for their lifetime instead of minted per request; a token the vendor answered as expired justifies a new one. */
export function tokenReuse(ctx: ConductContext): ConductResult {
  if (!ctx.vendor.auth.mints.length || !ctx.tokens.length) return null;
  const ts = ctx.requests.map((r) => r.ts);
  const windowS = ts.length ? Math.max(...ts) - Math.min(...ts) : 0;
  for (const mint of ctx.vendor.auth.mints) {
    const kind = tokenMint(mint).logKind;
    const minted = ctx.tokens.filter((t) => t.kind === kind).length;
    const expired = ctx.requests.filter((r) => r.authOutcome === "expired").length;
    const allowed = Math.max(1, ctx.connectorRuns) * (Math.ceil(windowS / mint.ttlS) + 1) + 1 + expired;
    if (minted > allowed) return soft("token_reused_not_reminted", false, `${minted} ${kind}s minted for ${ctx.connectorRuns} runs over ${windowS.toFixed(0)}s (at most ${allowed} needed)`);
  }
  return soft("token_reused_not_reminted", true, `${ctx.tokens.length} tokens minted, reused for their lifetime`);
}
