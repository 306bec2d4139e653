/**
 * @module auth/define
 * The shapes of the two auth families: schemes (what every data request must
 * present: a header, a cookie, a request signature) and mints (endpoints that
 * issue tokens: client credentials, session exchange, login). Each is a
 * module with its schema, references, engine behaviour and documentation;
 * `auth/index.ts` lists them.
 */
import type { z } from "zod";
import type { AuthOutcome } from "../../evidence/logs.ts";
import type { Reply } from "../kit/reply.ts";
import type { HeaderReader } from "../kit/request-headers.ts";
import type { QueryReader } from "../kit/query-params.ts";

/** A token the vendor has issued. */
export interface IssuedToken {
  value: string;
  /** Declared token name (`access_token`, `session_token`). */
  name: string;
  kind: "access" | "refresh" | "session";
  expiresMs: number;
  /** Absolute end of a refresh-token family, when expiry is absolute. */
  familyExpiresMs: number | null;
  used: boolean;
}

/** The vendor's issued tokens, as mints and schemes use them. */
export interface TokenLedger {
  issue(name: string, kind: IssuedToken["kind"], ttlMs: number, nowMs: number, familyExpiresMs?: number | null): IssuedToken;
  find(value: string): IssuedToken | null;
  markUsed(value: string): void;
  extend(value: string, expiresMs: number): void;
}

/** The parts of a request auth reads. */
export interface AuthRequest {
  method: string;
  path: string;
  query: QueryReader;
  headers: HeaderReader;
  rawBody: string;
  body: Record<string, unknown> | null;
  bodyInvalid: boolean;
  nowMs: number;
}

/** Result of checking one requirement. */
export interface AuthCheck {
  outcome: AuthOutcome;
  /** Human-readable reason when the outcome is not ok. */
  reason: string;
  /** Machine code for the vendor's error body. */
  code: string;
}

export const OK: AuthCheck = { outcome: "ok", reason: "", code: "" };

/** A name the declaration refers to, at a key of the referring object. */
export interface Reference {
  key: string;
  credential?: string;
  token?: string;
}

/** What the docs renderers give a scheme or mint. */
export interface AuthDocsContext {
  /** Environment variable holding a credential. */
  envName(credential: string): string;
  baseUrl: string;
}

/** What a scheme's verifier may use. */
export interface VerifyContext {
  credentials: Record<string, string>;
  /** Checks a presented token against the ledger (expiry, kind, sliding sessions). */
  checkToken(value: string, tokenName: string): AuthCheck;
  /** Offset of the vendor's wall clock from true time. */
  clockOffsetS: number;
}

/** A requirement every data request must meet. */
export interface AuthScheme<S extends z.ZodObject = z.ZodObject, P = z.infer<S>> {
  schema: S;
  refs(p: P): Reference[];
  verify(p: P, req: AuthRequest, ctx: VerifyContext): AuthCheck | Promise<AuthCheck>;
  /** The token a request presents under this requirement (revocation answers), if it carries one. */
  presentedToken?(p: P, headers: HeaderReader): string | null;
  /** Headers whose values are credentials (redacted in the log). */
  secretHeaders(p: P): string[];
  /** Headers a client must send: what a header-name lie may rename. */
  headerNames(p: P): string[];
  renameHeader(p: P, from: string, to: string): void;
  /** The signing recipe of a request-signing scheme, and changing it (a signature-recipe lie). */
  recipe?: { get(p: P): { parts: string[]; separator: string }; set(p: P, r: { parts: string[]; separator: string }): void };
  docs: {
    /** Lines under "Every request" of the authentication page. */
    every(p: P, ctx: AuthDocsContext): string[];
    /** The curl flags a request needs. */
    curl(p: P, ctx: AuthDocsContext): string;
    /** OpenAPI security scheme name and object. */
    securityName(p: P): string;
    securityScheme(p: P): Record<string, unknown>;
  };
}

/** What a token endpoint answers. */
export interface MintResult {
  reply: Reply;
  auth: AuthOutcome;
  /** Token-log rows to append (one per token issued). */
  minted: { kind: string; route: string; expiresIn: number }[];
}

/** A token endpoint. */
export interface TokenMint<S extends z.ZodObject = z.ZodObject, M = z.infer<S>> {
  schema: S;
  refs(m: M): Reference[];
  serve(m: M, req: AuthRequest, ctx: { credentials: Record<string, string>; tokens: TokenLedger }): MintResult;
  /** What the token log calls the tokens it issues. */
  logKind: string;
  /** A data request used one of its tokens (sliding sessions extend it). */
  onTokenUsed?(m: M, token: IssuedToken, tokens: TokenLedger, nowMs: number): void;
  /** The expiry policy of what it issues, and changing it (a token-expiry lie). */
  expiry?: { get(m: M): "sliding" | "absolute" | undefined; set(m: M, says: "sliding" | "absolute"): void };
  docs: {
    /** The mint's section of the authentication page. */
    section(m: M): string[];
    /** An OpenAPI security scheme the mint defines, if any. */
    securityScheme?(m: M, ctx: AuthDocsContext): { name: string; scheme: Record<string, unknown> };
    /** The mint's OpenAPI operation parts. */
    operation(m: M): { summary: string; mint: Record<string, unknown>; security: Record<string, unknown>[]; bodyRequired: boolean };
  };
}

export function defineScheme<S extends z.ZodObject>(scheme: AuthScheme<S>): AuthScheme<S> {
  return scheme;
}

export function defineMint<S extends z.ZodObject>(mint: TokenMint<S>): TokenMint<S> {
  return mint;
}

export function kindOf(m: { schema: z.ZodObject }): string {
  return (m.schema.shape.kind as z.ZodLiteral<string>).value;
}

/** An OAuth-style error answer of a token endpoint. */
export function oauthError(status: number, error: string, description: string, auth: AuthOutcome): MintResult {
  return { reply: { status, headers: {}, body: { error, error_description: description } }, auth, minted: [] };
}

/** A string field of a JSON or form body. */
export function bodyField(req: AuthRequest, name: string): string | null {
  const v = req.body?.[name];
  return typeof v === "string" ? v : null;
}

/** Where a credential or token value comes from. */
export type ValueSource = { credential: string } | { token: string };
