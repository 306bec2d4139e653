import type { HmacRequirement, Requirement } from "../../../declarations/schema/auth.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { VendorRequest } from "../http/vendor-request.ts";
import type { AuthOutcome } from "../../../declarations/evidence/logs.ts";
import { safeEqual, signRequest } from "../../../mechanics/kit/hmac.ts";
import type { TokenStore } from "./token-store.ts";

/** Result of checking a request against the vendor's `present` requirements. */
export interface AuthCheck {
  outcome: AuthOutcome;
  /** Human-readable reason when the outcome is not ok. */
  reason: string;
  /** Machine code for the vendor's error body. */
  code: string;
}

const OK: AuthCheck = { outcome: "ok", reason: "", code: "" };

function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return rest.join("=");
  }
  return null;
}

function stripScheme(raw: string, scheme: string | undefined): string | null {
  if (!scheme) return raw.trim();
  const prefix = `${scheme.toLowerCase()} `;
  return raw.toLowerCase().startsWith(prefix) ? raw.slice(prefix.length).trim() : null;
}

function checkToken(presented: string, tokenName: string, tokens: TokenStore, nowMs: number, vendor: Vendor): AuthCheck {
  const t = tokens.find(presented);
  if (!t || t.name !== tokenName || t.kind === "refresh") return { outcome: "invalid", reason: "token is not recognised", code: "invalid_token" };
  if (t.expiresMs <= nowMs) return { outcome: "expired", reason: "token has expired", code: "token_expired" };
  const mint = vendor.auth.mints.find((m) => m.issues === tokenName);
  if (mint?.kind === "session_exchange" && mint.expiry === "sliding") tokens.extend(t.value, nowMs + mint.ttlS * 1000);
  return OK;
}

async function checkHmac(req: VendorRequest, rule: HmacRequirement, credentials: Record<string, string>, vendor: Vendor): Promise<AuthCheck> {
  const signature = req.headers.get(rule.signatureHeader);
  const timestamp = req.headers.get(rule.timestampHeader);
  if (!signature || !timestamp) return { outcome: "missing", reason: `${rule.signatureHeader} and ${rule.timestampHeader} are required`, code: "signature_missing" };
  if (!/^\d{1,16}$/.test(timestamp.trim())) return { outcome: "invalid", reason: `${rule.timestampHeader} must be an integer`, code: "timestamp_invalid" };
  const tsS = rule.timestampUnit === "ms" ? Number(timestamp) / 1000 : Number(timestamp);
  const vendorS = req.nowMs / 1000 + vendor.clock.wireOffsetS;
  if (Math.abs(tsS - vendorS) > rule.allowedSkewS) {
    return { outcome: "invalid", reason: `${rule.timestampHeader} is outside the allowed window of ${rule.allowedSkewS}s`, code: "timestamp_out_of_window" };
  }
  const expected = await signRequest({ method: req.method, path: req.path, query: req.query, timestamp, rawBody: req.rawBody }, rule, credentials[rule.secret]);
  if (!safeEqual(signature.trim(), expected)) {
    const recipe = `the server signs ${rule.parts.join(" + ")} joined by ${JSON.stringify(rule.separator)}`;
    return { outcome: "invalid", reason: `signature does not match (${recipe})`, code: "signature_mismatch" };
  }
  return OK;
}

async function checkOne(req: VendorRequest, p: Requirement, credentials: Record<string, string>, tokens: TokenStore, vendor: Vendor): Promise<AuthCheck> {
  switch (p.kind) {
    case "header": {
      const raw = req.headers.get(p.name);
      if (raw === null || raw.trim() === "") return { outcome: "missing", reason: `${p.name} header is required`, code: "unauthorized" };
      const value = stripScheme(raw, p.scheme);
      if (value === null) return { outcome: "invalid", reason: `${p.name} must use the ${p.scheme} scheme`, code: "unauthorized" };
      if ("credential" in p.value) {
        return safeEqual(value, credentials[p.value.credential]) ? OK : { outcome: "invalid", reason: `${p.name} is not valid`, code: "unauthorized" };
      }
      return checkToken(value, p.value.token, tokens, req.nowMs, vendor);
    }
    case "cookie": {
      const value = cookieValue(req.headers.get("cookie"), p.name);
      if (!value) return { outcome: "missing", reason: `cookie ${p.name} is required`, code: "unauthorized" };
      return checkToken(value, p.value.token, tokens, req.nowMs, vendor);
    }
    case "hmac":
      return checkHmac(req, p, credentials, vendor);
  }
}

/**
 * Checks every requirement in order; the first failure decides. A request
 * carrying the vendor's legacy credential is judged on that alone (until an
 * auth-sunset fault retires it: `legacyRetired`).
 */
export async function verifyRequest(req: VendorRequest, vendor: Vendor, credentials: Record<string, string>, tokens: TokenStore, legacyRetired = false): Promise<AuthCheck> {
  const legacy = vendor.auth.legacy;
  if (legacy && req.headers.get(legacy.name)) {
    if (legacyRetired) return { outcome: "invalid", reason: `${legacy.name} was retired; use the current authentication`, code: "legacy_auth_retired" };
    return checkOne(req, legacy, credentials, tokens, vendor);
  }
  for (const p of vendor.auth.present) {
    const check = await checkOne(req, p, credentials, tokens, vendor);
    if (check.outcome !== "ok") return check;
  }
  return OK;
}
