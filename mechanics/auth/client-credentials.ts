/**
 * @module auth/client-credentials
 * OAuth 2.0 client-credentials grant: the client id and secret (form, JSON or
 * HTTP Basic) are exchanged for a bearer token, optionally with refresh
 * tokens that are single-use or reusable, with sliding or absolute expiry.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { type AuthRequest, bodyField, defineMint, oauthError } from "./define.ts";

const Refresh = z.object({
  /** `single-use` refresh tokens are burnt when exchanged; `reusable` ones are not. */
  use: z.enum(["single-use", "reusable"]),
  /** `sliding`: every exchange restarts the lifetime; `absolute`: it counts from the first mint. */
  expiry: z.enum(["sliding", "absolute"]),
  /** Lifetime of a refresh token in seconds. */
  ttlS: z.number().int().positive(),
});

const schema = z.object({
  kind: z.literal("client_credentials"),
  /** Token endpoint path, relative to the vendor root. */
  path: z.string().startsWith("/"),
  /** Credential holding the client id. */
  clientId: z.string(),
  /** Credential holding the client secret. */
  clientSecret: z.string(),
  /** Name of the token this mint issues (referenced by `present`). */
  issues: z.string(),
  /** Access-token lifetime in seconds, reported as `expires_in`. */
  ttlS: z.number().int().positive(),
  /** Refresh tokens, when the vendor issues them. */
  refresh: Refresh.optional(),
});

/** Client id and secret from the body or from HTTP Basic auth. */
function clientCredentials(req: AuthRequest): { id: string | null; secret: string | null } {
  const basic = req.headers.get("authorization");
  if (basic?.toLowerCase().startsWith("basic ")) {
    try {
      const [id, ...rest] = atob(basic.slice(6).trim()).split(":");
      return { id: decodeURIComponent(id), secret: decodeURIComponent(rest.join(":")) };
    } catch {
      return { id: null, secret: null };
    }
  }
  return { id: bodyField(req, "client_id"), secret: bodyField(req, "client_secret") };
}

export const clientCredentialsMint = defineMint({
  schema,
  refs: (m) => [
    { key: "clientId", credential: m.clientId },
    { key: "clientSecret", credential: m.clientSecret },
  ],
  logKind: "access_token",
  serve(mint, req, { credentials, tokens }) {
    if (req.bodyInvalid) return oauthError(400, "invalid_request", "body must be JSON or form-encoded", "missing");
    const grant = bodyField(req, "grant_type");
    const ttlMs = mint.ttlS * 1000;
    if (grant === "refresh_token") {
      if (!mint.refresh) return oauthError(400, "unsupported_grant_type", "refresh tokens are not issued by this server", "invalid");
      const presented = bodyField(req, "refresh_token");
      if (!presented) return oauthError(400, "invalid_request", "refresh_token is required", "missing");
      const old = tokens.find(presented);
      if (old?.kind !== "refresh" || old.name !== mint.issues) return oauthError(400, "invalid_grant", "refresh token is not recognised", "invalid");
      if (old.used && mint.refresh.use === "single-use") return oauthError(400, "invalid_grant", "refresh token was already used", "invalid");
      if (old.expiresMs <= req.nowMs) return oauthError(400, "invalid_grant", "refresh token has expired", "expired");
      if (mint.refresh.use === "single-use") tokens.markUsed(old.value);
      const access = tokens.issue(mint.issues, "access", ttlMs, req.nowMs);
      const family = mint.refresh.expiry === "absolute" ? (old.familyExpiresMs ?? old.expiresMs) : null;
      const refreshTtl = family !== null ? Math.max(0, family - req.nowMs) : mint.refresh.ttlS * 1000;
      const refresh = tokens.issue(mint.issues, "refresh", refreshTtl, req.nowMs, family);
      return {
        reply: { status: 200, headers: {}, body: { access_token: access.value, token_type: "Bearer", expires_in: mint.ttlS, refresh_token: refresh.value } },
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
    return { reply: { status: 200, headers: {}, body }, auth: "ok", minted: [{ kind: "access_token", route: "client_credentials", expiresIn: mint.ttlS }] };
  },
  expiry: {
    get: (m) => m.refresh?.expiry,
    set(m, says) {
      if (m.refresh) m.refresh.expiry = says;
    },
  },
  docs: {
    section(mint) {
      const lines = [
        `## Access tokens: \`POST ${mint.path}\``,
        "",
        `OAuth 2.0 client credentials. Send \`grant_type=client_credentials\` with \`client_id\` and \`client_secret\` (form-encoded or JSON, or HTTP Basic). The response carries \`access_token\` and \`expires_in\` (${mint.ttlS} s).`,
        "",
      ];
      if (mint.refresh) {
        lines.push(
          `The response also carries a \`refresh_token\`. Exchange it with \`grant_type=refresh_token\` for a new pair. Refresh tokens are ${mint.refresh.use === "single-use" ? "single-use: each exchange returns a new one and burns the old" : "reusable until they expire"}, and their lifetime (${mint.refresh.ttlS} s) is ${mint.refresh.expiry === "sliding" ? "sliding: every exchange restarts it" : "absolute: it counts from the first token and is not extended by exchanges"}.`,
          "",
        );
      }
      return lines;
    },
    securityScheme: (m, ctx) => ({
      name: `oauth_${m.issues}`,
      scheme: {
        type: "oauth2",
        flows: { clientCredentials: { tokenUrl: `${ctx.baseUrl}${m.path}`, refreshUrl: m.refresh ? `${ctx.baseUrl}${m.path}` : undefined, scopes: {} } },
        "x-wirebench-issues": m.issues,
      },
    }),
    operation: (m) => ({
      summary: "Get an access token",
      mint: { kind: m.kind, issues: m.issues, clientId: m.clientId, clientSecret: m.clientSecret, responseField: "access_token" },
      security: [],
      bodyRequired: true,
    }),
  },
});
