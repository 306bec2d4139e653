/**
 * @module auth
 * The registries of auth schemes and token mints, the only lists of them.
 */
import { clientCredentialsMint } from "./client-credentials.ts";
import { cookieScheme } from "./cookie.ts";
import { type AuthScheme, kindOf, type TokenMint } from "./define.ts";
import { headerScheme } from "./header.ts";
import { loginMint } from "./login.ts";
import { requestSignature } from "./request-signature.ts";
import { sessionExchangeMint } from "./session-exchange.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const AUTH_SCHEMES = [headerScheme, cookieScheme, requestSignature] as const;
export const TOKEN_MINTS = [clientCredentialsMint, sessionExchangeMint, loginMint] as const;

const SCHEMES = new Map<string, AuthScheme<never, unknown>>(AUTH_SCHEMES.map((s) => [kindOf(s), s as unknown as AuthScheme<never, unknown>]));
const MINTS = new Map<string, TokenMint<never, unknown>>(TOKEN_MINTS.map((m) => [kindOf(m), m as unknown as TokenMint<never, unknown>]));

/** The module of a declared requirement's scheme. */
export function authScheme(p: { kind: string }): AuthScheme<never, unknown> {
  const s = SCHEMES.get(p.kind);
  if (!s) throw new Error(`unknown auth scheme "${p.kind}"`);
  return s;
}

/** The module of a declared mint's kind. */
export function tokenMint(m: { kind: string }): TokenMint<never, unknown> {
  const t = MINTS.get(m.kind);
  if (!t) throw new Error(`unknown mint kind "${m.kind}"`);
  return t;
}

export { HeaderRequirement } from "./header.ts";

/** An endpoint that issues tokens: the union of every module's schema in this registry, by `kind`. */
export const Mint = unionOf("kind", TOKEN_MINTS);
export type Mint = z.infer<typeof Mint>;

/** What every data request must present: the union of every module's schema in this registry, by `kind`. */
export const Requirement = unionOf("kind", AUTH_SCHEMES);
export type Requirement = z.infer<typeof Requirement>;
