/**
 * @module signatures/define
 * The shape of a webhook signature scheme: which key bytes, which string is
 * signed, which headers carry it, how a receiver verifies it, how the docs
 * explain it. One module per scheme; `signatures/index.ts` lists them.
 */
import type { z } from "zod";

/** One webhook delivery as it is signed. */
export interface SignableDelivery {
  /** Delivery id (the same on every retry of one event). */
  id: string;
  /** Unix seconds the delivery is stamped with. */
  timestampS: number;
  /** Exact request body. */
  body: string;
}

/** What a scheme's verifier is given. */
export interface VerifyInput {
  /** Header lookup, case-insensitive. */
  get(name: string): string | null;
  body: string;
  /** The MAC the scheme's recipe gives for a delivery. */
  mac(msg: SignableDelivery): Promise<string>;
  /** Why a timestamp is outside the window, or null. */
  skewProblem(ts: number): string | null;
}

export interface SignatureScheme<S extends z.ZodObject = z.ZodObject, G = z.infer<S>> {
  schema: S;
  /** HMAC key bytes from the shared secret. */
  key(sig: G, secret: string): Uint8Array;
  /** The string the scheme signs. */
  content(msg: SignableDelivery): string;
  encoding: "hex" | "base64";
  /** Whether deliveries carry a signed timestamp a receiver can check for staleness (default true). */
  timestamped?: boolean;
  /** Headers carrying a signature. */
  headers(sig: G, msg: SignableDelivery, signature: string): Record<string, string>;
  /** Why a delivery fails verification, or null. */
  verify(sig: G, input: VerifyInput): Promise<string | null>;
  /** How the docs explain the scheme. */
  docs(sig: G): string[];
}

export function defineSignature<S extends z.ZodObject>(scheme: SignatureScheme<S>): SignatureScheme<S> {
  return scheme;
}

export function schemeOf(s: SignatureScheme): string {
  return (s.schema.shape.scheme as z.ZodLiteral<string>).value;
}

/** Parses a Unix-seconds timestamp; null unless it is a plain integer. */
export function parseTimestamp(text: string): number | null {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

export const utf8 = (text: string) => new TextEncoder().encode(text);
