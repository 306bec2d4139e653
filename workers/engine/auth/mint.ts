import type { Mint } from "../../../declarations/schema/auth.ts";
import { json, type Reply } from "../../../mechanics/kit/reply.ts";
import type { VendorRequest } from "../http/vendor-request.ts";
import type { AuthOutcome } from "../../../declarations/evidence/logs.ts";
import { safeEqual } from "../../../mechanics/kit/hmac.ts";
import type { TokenStore } from "./token-store.ts";

/** Outcome of a token endpoint call. */
export interface MintResult {
  reply: Reply;
  auth: AuthOutcome;
  /** Token-log rows to append (one per token issued). */
  minted: { kind: string; route: string; expiresIn: number }[];
}

function oauthError(status: number, error: string, description: string, auth: AuthOutcome): MintResult {
  return { reply: json(status, { error, error_description: description }), auth, minted: [] };
}

function field(req: VendorRequest, name: string): string | null {
  const v = req.body?.[name];
  return typeof v === "string" ? v : null;
}

/** Client id and secret from the body or from HTTP Basic auth. */
function clientCredentials(req: VendorRequest): { id: string | null; secret: string | null } {
  const basic = req.headers.get("authorization");
  if (basic?.toLowerCase().startsWith("basic ")) {
    try {
      const [id, ...rest] = atob(basic.slice(6).trim()).split(":");
      return { id: decodeURIComponent(id), secret: decodeURIComponent(rest.join(":")) };
    } catch {
      return { id: null, secret: null };
    }
  }
  return { id: field(req, "client_id"), secret: field(req, "client_secret") };
}

function clientCredentialsGrant(req: VendorRequest, mint: Extract<Mint, { kind: "client_credentials" }>, credentials: Record<string, string>, tokens: TokenStore): MintResult {
  if (req.bodyInvalid) return oauthError(400, "invalid_request", "body must be JSON or form-encoded", "missing");
  const grant = field(req, "grant_type");
  const ttlMs = mint.ttlS * 1000;
  if (grant === "refresh_token") {
    if (!mint.refresh) return oauthError(400, "unsupported_grant_type", "refresh tokens are not issued by this server", "invalid");
    const presented = field(req, "refresh_token");
    if (!presented) return oauthError(400, "invalid_request", "refresh_token is required", "missing");
    const old = tokens.find(presented);
    if (!old || old.kind !== "refresh" || old.name !== mint.issues) return oauthError(400, "invalid_grant", "refresh token is not recognised", "invalid");
    if (old.used && mint.refresh.use === "single-use") return oauthError(400, "invalid_grant", "refresh token was already used", "invalid");
    if (old.expiresMs <= req.nowMs) return oauthError(400, "invalid_grant", "refresh token has expired", "expired");
    if (mint.refresh.use === "single-use") tokens.markUsed(old.value);
    const access = tokens.issue(mint.issues, "access", ttlMs, req.nowMs);
    const family = mint.refresh.expiry === "absolute" ? (old.familyExpiresMs ?? old.expiresMs) : null;
    const refreshTtl = family !== null ? Math.max(0, family - req.nowMs) : mint.refresh.ttlS * 1000;
    const refresh = tokens.issue(mint.issues, "refresh", refreshTtl, req.nowMs, family);
    return {
      reply: json(200, { access_token: access.value, token_type: "Bearer", expires_in: mint.ttlS, refresh_token: refresh.value }),
      auth: "ok",
      minted: [{ kind: "access_token", route: "refresh_token", expiresIn: mint.ttlS }],
    };
  }
  if (grant !== "client_credentials") return oauthError(400, "unsupported_grant_type", "grant_type must be client_credentials or refresh_token", grant ? "invalid" : "missing");
  const { id, secret } = clientCredentials(req);
  if (!id || !secret) return oauthError(401, "invalid_client", "client_id and client_secret are required", "missing");
  if (!safeEqual(id, credentials[mint.clientId]) || !safeEqual(secret, credentials[mint.clientSecret])) return oauthError(401, "invalid_client", "client authentication failed", "invalid");
  const access = tokens.issue(mint.issues, "access", ttlMs, req.nowMs);
  const body: Record<string, unknown> = { access_token: access.value, token_type: "Bearer", expires_in: mint.ttlS };
  if (mint.refresh) {
    const refreshMs = mint.refresh.ttlS * 1000;
    body.refresh_token = tokens.issue(mint.issues, "refresh", refreshMs, req.nowMs, mint.refresh.expiry === "absolute" ? req.nowMs + refreshMs : null).value;
  }
  return { reply: json(200, body), auth: "ok", minted: [{ kind: "access_token", route: "client_credentials", expiresIn: mint.ttlS }] };
}

function sessionExchange(req: VendorRequest, mint: Extract<Mint, { kind: "session_exchange" }>, tokens: TokenStore): MintResult {
  const header = req.headers.get("authorization");
  if (!header) return oauthError(401, "invalid_token", "Authorization: Bearer <access token> is required", "missing");
  if (!header.toLowerCase().startsWith("bearer ")) return oauthError(401, "invalid_token", "Authorization must use the Bearer scheme", "invalid");
  const t = tokens.find(header.slice(7).trim());
  if (!t || t.name !== mint.requires || t.kind !== "access") return oauthError(401, "invalid_token", "access token is not recognised", "invalid");
  if (t.expiresMs <= req.nowMs) return oauthError(401, "invalid_token", "access token has expired", "expired");
  const session = tokens.issue(mint.issues, "session", mint.ttlS * 1000, req.nowMs);
  return {
    reply: json(200, { [mint.responseField]: session.value, expires_in: mint.ttlS }),
    auth: "ok",
    minted: [{ kind: "session_token", route: "session_exchange", expiresIn: mint.ttlS }],
  };
}

function login(req: VendorRequest, mint: Extract<Mint, { kind: "login" }>, credentials: Record<string, string>, tokens: TokenStore): MintResult {
  const user = field(req, "username");
  const pass = field(req, "password");
  if (!user || !pass) return oauthError(400, "invalid_request", "username and password are required", "missing");
  if (!safeEqual(user, credentials[mint.username]) || !safeEqual(pass, credentials[mint.password])) return oauthError(401, "invalid_credentials", "username or password is wrong", "invalid");
  const session = tokens.issue(mint.issues, "session", mint.ttlS * 1000, req.nowMs);
  return {
    reply: json(200, { ok: true, expires_in: mint.ttlS }, { "set-cookie": `${mint.cookie}=${session.value}; Path=/; HttpOnly; Max-Age=${mint.ttlS}` }),
    auth: "ok",
    minted: [{ kind: "session_cookie", route: "login", expiresIn: mint.ttlS }],
  };
}

/** Serves one token endpoint. */
export function handleMint(req: VendorRequest, mint: Mint, credentials: Record<string, string>, tokens: TokenStore): MintResult {
  switch (mint.kind) {
    case "client_credentials":
      return clientCredentialsGrant(req, mint, credentials, tokens);
    case "session_exchange":
      return sessionExchange(req, mint, tokens);
    case "login":
      return login(req, mint, credentials, tokens);
  }
}
