import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { type AuthCheck, type AuthRequest, OK, type VerifyContext } from "../../../mechanics/auth/define.ts";
import { authScheme, tokenMint } from "../../../mechanics/auth/index.ts";
import type { VendorRequest } from "../http/vendor-request.ts";
import type { TokenStore } from "./token-store.ts";

export type { AuthCheck };

function checkToken(presented: string, tokenName: string, tokens: TokenStore, nowMs: number, vendor: Vendor): AuthCheck {
  const t = tokens.find(presented);
  if (!t || t.name !== tokenName || t.kind === "refresh") return { outcome: "invalid", reason: "token is not recognised", code: "invalid_token" };
  if (t.expiresMs <= nowMs) return { outcome: "expired", reason: "token has expired", code: "token_expired" };
  const mint = vendor.auth.mints.find((m) => m.issues === tokenName);
  if (mint) tokenMint(mint).onTokenUsed?.(mint, t, tokens, nowMs);
  return OK;
}

/**
 * Checks every requirement in order through its scheme; the first failure
 * decides. A request carrying the vendor's legacy credential is judged on
 * that alone (until a fault retires it: `legacyRetired`).
 */
export function verifyRequest(req: VendorRequest, vendor: Vendor, credentials: Record<string, string>, tokens: TokenStore, legacyRetired = false): Promise<AuthCheck> {
  const ctx = {
    credentials,
    clockOffsetS: vendor.clock.wireOffsetS,
    checkToken: (value: string, name: string) => checkToken(value, name, tokens, req.nowMs, vendor),
  };
  return decide(req, vendor, ctx, legacyRetired);
}

async function decide(req: AuthRequest, vendor: Vendor, ctx: VerifyContext, legacyRetired: boolean): Promise<AuthCheck> {
  const legacy = vendor.auth.legacy;
  if (legacy && req.headers.get(legacy.name)) {
    if (legacyRetired) return { outcome: "invalid", reason: `${legacy.name} was retired; use the current authentication`, code: "legacy_auth_retired" };
    return authScheme(legacy).verify(legacy, req, ctx);
  }
  for (const p of vendor.auth.present) {
    const check = await authScheme(p).verify(p, req, ctx);
    if (check.outcome !== "ok") return check;
  }
  return OK;
}
