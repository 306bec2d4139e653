import { z } from "zod";

/** A secret or identifier minted per world and handed to the connector. */
export const Credential = z.object({
  /** Name used inside the declaration (`app_token`, `client_secret`, ...). */
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /** Prefix of the minted value, so a leaked value is recognisable. */
  prefix: z.string().default(""),
  /** Whether the value is a secret (redacted in logs, checked for leaks). */
  secret: z.boolean().default(true),
  /** What the credential is, for the documentation. */
  description: z.string().min(1),
});
export type Credential = z.infer<typeof Credential>;

const Refresh = z.object({
  /** `single-use` refresh tokens are burnt when exchanged; `reusable` ones are not. */
  use: z.enum(["single-use", "reusable"]),
  /** `sliding`: every exchange restarts the lifetime; `absolute`: it counts from the first mint. */
  expiry: z.enum(["sliding", "absolute"]),
  /** Lifetime of a refresh token in seconds. */
  ttlS: z.number().int().positive(),
});

/** OAuth2 client-credentials grant: exchanges the client id and secret for a bearer token. */
export const ClientCredentialsMint = z.object({
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

/** Exchanges a token already held for a session token (second link of a chain). */
export const SessionExchangeMint = z.object({
  kind: z.literal("session_exchange"),
  path: z.string().startsWith("/"),
  /** Token that must be presented as `Authorization: Bearer` to open a session. */
  requires: z.string(),
  /** Name of the session token this mint issues. */
  issues: z.string(),
  /** JSON field of the response carrying the session token. */
  responseField: z.string().default("session_token"),
  /** Session lifetime in seconds. */
  ttlS: z.number().int().positive(),
  /** `sliding`: each authenticated request extends the session; `absolute`: it does not. */
  expiry: z.enum(["sliding", "absolute"]).default("absolute"),
});

/** Username/password login that sets a session cookie. */
export const LoginMint = z.object({
  kind: z.literal("login"),
  path: z.string().startsWith("/"),
  /** Credential holding the username. */
  username: z.string(),
  /** Credential holding the password. */
  password: z.string(),
  issues: z.string(),
  /** Cookie name carrying the session. */
  cookie: z.string(),
  ttlS: z.number().int().positive(),
});

export const Mint = z.discriminatedUnion("kind", [ClientCredentialsMint, SessionExchangeMint, LoginMint]);
export type Mint = z.infer<typeof Mint>;

/** Where a credential or token value comes from. */
const ValueSource = z.union([z.object({ credential: z.string() }), z.object({ token: z.string() })]);

/** A header every data request must carry. */
export const HeaderRequirement = z.object({
  kind: z.literal("header"),
  /** Header name as documented. */
  name: z.string(),
  /** Optional scheme, e.g. `Bearer` gives `Authorization: Bearer <value>`. */
  scheme: z.string().optional(),
  value: ValueSource,
});

/** A cookie every data request must carry. */
export const CookieRequirement = z.object({
  kind: z.literal("cookie"),
  name: z.string(),
  value: z.object({ token: z.string() }),
});

/** Parts of a request that an HMAC signature covers, in order. */
export const SignedPart = z.enum(["method", "path", "query", "timestamp", "body_sha256", "body"]);

/** A per-request HMAC-SHA256 signature. */
export const HmacRequirement = z.object({
  kind: z.literal("hmac"),
  /** Credential holding the signing secret. */
  secret: z.string(),
  /** Header carrying the signature. */
  signatureHeader: z.string(),
  /** Header carrying the request timestamp. */
  timestampHeader: z.string(),
  /** Unit of the timestamp header. */
  timestampUnit: z.enum(["s", "ms"]),
  /** Signed parts in order; `query` is the query string with keys sorted. */
  parts: z.array(SignedPart).min(1),
  /** String joining the parts. */
  separator: z.string(),
  encoding: z.enum(["hex", "base64"]),
  /** Largest accepted difference between the timestamp and the vendor clock. */
  allowedSkewS: z.number().int().positive(),
});
export type HmacRequirement = z.infer<typeof HmacRequirement>;

export const Requirement = z.discriminatedUnion("kind", [HeaderRequirement, CookieRequirement, HmacRequirement]);
export type Requirement = z.infer<typeof Requirement>;

/** The whole auth chain of a vendor. */
export const Auth = z.object({
  /** Values minted per world and handed to the connector. */
  credentials: z.array(Credential).min(1),
  /** Endpoints that issue tokens, in chain order. */
  mints: z.array(Mint).default([]),
  /** What every data request must present; all of them. */
  present: z.array(Requirement).min(1),
  /** A legacy static credential accepted instead of `present` until an `auth-sunset` fault retires it. */
  legacy: HeaderRequirement.optional(),
});
export type Auth = z.infer<typeof Auth>;
