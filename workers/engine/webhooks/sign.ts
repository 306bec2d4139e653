import type { WebhookSignature } from "../../../declarations/schema/webhooks.ts";
import { safeEqual, toBase64, toHex } from "../../../mechanics/kit/hmac.ts";

/** One webhook delivery as it is signed. */
export interface SignableDelivery {
  /** Delivery id (the same on every retry of one event). */
  id: string;
  /** Unix seconds the delivery is stamped with. */
  timestampS: number;
  /** Exact request body. */
  body: string;
}

const encoder = new TextEncoder();

/** Appended to the key of a forged delivery, so its MAC is well formed but wrong. */
const FORGED_KEY_SUFFIX = encoder.encode("#forged");

function fromBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new Error("the Standard Webhooks secret is not base64 (expected whsec_<base64>)");
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The HMAC key bytes of a scheme: base64-decoded after `whsec_` for Standard Webhooks, UTF-8 otherwise. */
function keyBytes(sig: WebhookSignature, secret: string): Uint8Array {
  if (sig.scheme === "standard") return fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  return encoder.encode(secret);
}

async function hmac(key: Uint8Array, message: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", k, encoder.encode(message));
}

/** The string each scheme signs. */
function signedContent(sig: WebhookSignature, msg: SignableDelivery): string {
  switch (sig.scheme) {
    case "standard":
      return `${msg.id}.${msg.timestampS}.${msg.body}`;
    case "github":
      return msg.body;
    case "stripe":
    case "custom":
      return `${msg.timestampS}.${msg.body}`;
  }
}

/** The MAC of a delivery in the scheme's encoding (base64 for Standard Webhooks, hex otherwise). */
async function mac(sig: WebhookSignature, key: Uint8Array, msg: SignableDelivery): Promise<string> {
  const bytes = await hmac(key, signedContent(sig, msg));
  return sig.scheme === "standard" ? toBase64(bytes) : toHex(bytes);
}

/** Headers that sign one delivery. `tamper` makes a deliberately wrong signature (a forged delivery). */
export async function signatureHeaders(sig: WebhookSignature, secret: string, msg: SignableDelivery, opts?: { tamper?: boolean }): Promise<Record<string, string>> {
  let key = keyBytes(sig, secret);
  if (opts?.tamper) {
    const forged = new Uint8Array(key.length + FORGED_KEY_SUFFIX.length);
    forged.set(key);
    forged.set(FORGED_KEY_SUFFIX, key.length);
    key = forged;
  }
  const signature = await mac(sig, key, msg);
  const ts = String(msg.timestampS);
  switch (sig.scheme) {
    case "standard":
      return { "webhook-id": msg.id, "webhook-timestamp": ts, "webhook-signature": `v1,${signature}` };
    case "stripe":
      return { [sig.header.toLowerCase()]: `t=${ts},v1=${signature}` };
    case "github":
      return { "x-hub-signature-256": `sha256=${signature}` };
    case "custom":
      return { [sig.signatureHeader.toLowerCase()]: signature, [sig.timestampHeader.toLowerCase()]: ts };
  }
}

function headerReader(headers: Headers | Record<string, string>): (name: string) => string | null {
  if (typeof (headers as Headers).get === "function") return (name) => (headers as Headers).get(name);
  const lower = new Map(Object.entries(headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
  return (name) => lower.get(name.toLowerCase()) ?? null;
}

/** Parses a Unix-seconds timestamp; null unless it is a plain integer. */
function parseTimestamp(text: string): number | null {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

function skewProblem(ts: number, nowS: number, maxSkewS: number): string | null {
  const skew = nowS - ts;
  if (skew > maxSkewS) return `timestamp ${ts} is ${skew} s old (more than ${maxSkewS} s)`;
  if (-skew > maxSkewS) return `timestamp ${ts} is ${-skew} s in the future (more than ${maxSkewS} s)`;
  return null;
}

/** Verifies a delivery as a correct receiver would (for tests and the docs). Returns why it fails, or null. */
export async function verifySignature(sig: WebhookSignature, secret: string, headers: Headers | Record<string, string>, body: string, nowS: number, maxSkewS: number): Promise<string | null> {
  const get = headerReader(headers);
  const key = keyBytes(sig, secret);
  const missing = (name: string) => `missing ${name} header`;

  switch (sig.scheme) {
    case "standard": {
      const id = get("webhook-id");
      const tsText = get("webhook-timestamp");
      const signatures = get("webhook-signature");
      if (!id) return missing("webhook-id");
      if (!tsText) return missing("webhook-timestamp");
      if (!signatures) return missing("webhook-signature");
      const ts = parseTimestamp(tsText);
      if (ts === null) return `webhook-timestamp "${tsText}" is not Unix seconds`;
      const stale = skewProblem(ts, nowS, maxSkewS);
      if (stale) return stale;
      const expected = await mac(sig, key, { id, timestampS: ts, body });
      // A header may carry several space-separated `v1,<sig>` entries (key rotation); one match is enough.
      let matched = false;
      for (const entry of signatures.split(" ")) {
        const comma = entry.indexOf(",");
        if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
        if (safeEqual(entry.slice(comma + 1), expected)) matched = true;
      }
      return matched ? null : "no v1 signature matches";
    }
    case "stripe": {
      const name = sig.header.toLowerCase();
      const value = get(name);
      if (!value) return missing(name);
      let tsText: string | undefined;
      const v1: string[] = [];
      for (const pair of value.split(",")) {
        const eq = pair.indexOf("=");
        if (eq < 0) continue;
        const k = pair.slice(0, eq).trim();
        const v = pair.slice(eq + 1).trim();
        if (k === "t") tsText = v;
        else if (k === "v1") v1.push(v.toLowerCase());
      }
      if (tsText === undefined) return `${name} has no t= timestamp`;
      if (!v1.length) return `${name} has no v1= signature`;
      const ts = parseTimestamp(tsText);
      if (ts === null) return `${name} timestamp "${tsText}" is not Unix seconds`;
      const stale = skewProblem(ts, nowS, maxSkewS);
      if (stale) return stale;
      const expected = await mac(sig, key, { id: "", timestampS: ts, body });
      let matched = false;
      for (const candidate of v1) if (safeEqual(candidate, expected)) matched = true;
      return matched ? null : "no v1 signature matches";
    }
    case "github": {
      const value = get("x-hub-signature-256");
      if (!value) return missing("x-hub-signature-256");
      if (!value.startsWith("sha256=")) return 'x-hub-signature-256 does not start with "sha256="';
      const expected = await mac(sig, key, { id: "", timestampS: 0, body });
      return safeEqual(value.slice("sha256=".length).toLowerCase(), expected) ? null : "signature does not match";
    }
    case "custom": {
      const sigName = sig.signatureHeader.toLowerCase();
      const tsName = sig.timestampHeader.toLowerCase();
      const value = get(sigName);
      const tsText = get(tsName);
      if (!value) return missing(sigName);
      if (!tsText) return missing(tsName);
      const ts = parseTimestamp(tsText);
      if (ts === null) return `${tsName} "${tsText}" is not Unix seconds`;
      const stale = skewProblem(ts, nowS, maxSkewS);
      if (stale) return stale;
      const expected = await mac(sig, key, { id: "", timestampS: ts, body });
      return safeEqual(value.trim().toLowerCase(), expected) ? null : "signature does not match";
    }
  }
}
