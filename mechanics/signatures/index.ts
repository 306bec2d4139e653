/**
 * @module signatures
 * The registry of webhook signature schemes, the only list of them, and the
 * scheme-blind signing and verification built on it.
 */
import { toBase64, toHex } from "../kit/hmac.ts";
import { customSignature } from "./custom.ts";
import { type SignableDelivery, type SignatureScheme, schemeOf, utf8 } from "./define.ts";
import { githubSignature } from "./github.ts";
import { standardSignature } from "./standard.ts";
import { stripeSignature } from "./stripe.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const SIGNATURE_SCHEMES = [standardSignature, stripeSignature, githubSignature, customSignature] as const;

const BY_SCHEME = new Map<string, SignatureScheme<never, unknown>>(SIGNATURE_SCHEMES.map((s) => [schemeOf(s as unknown as SignatureScheme), s as unknown as SignatureScheme<never, unknown>]));

export function signatureScheme(sig: { scheme: string }): SignatureScheme<never, unknown> {
  const s = BY_SCHEME.get(sig.scheme);
  if (!s) throw new Error(`unknown signature scheme "${sig.scheme}"`);
  return s;
}

/** Appended to the key of a forged delivery, so its MAC is well formed but wrong. */
const FORGED_KEY_SUFFIX = utf8("#forged");

async function mac(scheme: SignatureScheme<never, unknown>, key: Uint8Array, msg: SignableDelivery): Promise<string> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const bytes = await crypto.subtle.sign("HMAC", k, utf8(scheme.content(msg)));
  return scheme.encoding === "base64" ? toBase64(bytes) : toHex(bytes);
}

/** Headers that sign one delivery. `tamper` makes a deliberately wrong signature (a forged delivery). */
export async function signatureHeaders(sig: { scheme: string }, secret: string, msg: SignableDelivery, opts?: { tamper?: boolean }): Promise<Record<string, string>> {
  const scheme = signatureScheme(sig);
  let key = scheme.key(sig as never, secret);
  if (opts?.tamper) {
    const forged = new Uint8Array(key.length + FORGED_KEY_SUFFIX.length);
    forged.set(key);
    forged.set(FORGED_KEY_SUFFIX, key.length);
    key = forged;
  }
  return scheme.headers(sig as never, msg, await mac(scheme, key, msg));
}

function headerReader(headers: Headers | Record<string, string>): (name: string) => string | null {
  if (typeof (headers as Headers).get === "function") return (name) => (headers as Headers).get(name);
  const lower = new Map(Object.entries(headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name.toLowerCase()) ?? null;
}

/** Verifies a delivery as a correct receiver would (for tests and the docs). Returns why it fails, or null. */
export async function verifySignature(sig: { scheme: string }, secret: string, headers: Headers | Record<string, string>, body: string, nowS: number, maxSkewS: number): Promise<string | null> {
  const scheme = signatureScheme(sig);
  const key = scheme.key(sig as never, secret);
  return scheme.verify(sig as never, {
    get: headerReader(headers),
    body,
    mac: (msg) => mac(scheme, key, msg),
    skewProblem(ts) {
      const skew = nowS - ts;
      if (skew > maxSkewS) return `timestamp ${ts} is ${skew} s old (more than ${maxSkewS} s)`;
      if (-skew > maxSkewS) return `timestamp ${ts} is ${-skew} s in the future (more than ${maxSkewS} s)`;
      return null;
    },
  });
}

export type { SignableDelivery } from "./define.ts";

/** How webhook deliveries are signed: the union of every module's schema in this registry, by `scheme`. */
export const WebhookSignature = unionOf("scheme", SIGNATURE_SCHEMES);
export type WebhookSignature = z.infer<typeof WebhookSignature>;
