/**
 * @module hmac
 * HMAC-SHA256 helpers shared by request signing (auth) and webhook signatures.
 */
import type { QueryReader } from "./query-params.ts";

/** What a request-signing recipe says: the parts, their order, the separator and the encoding. */
export interface SigningRecipe {
  parts: readonly string[];
  separator: string;
  encoding: "hex" | "base64";
}

/** The parts of a request a signature can cover. */
export interface SignableRequest {
  method: string;
  /** Path relative to the vendor root. */
  path: string;
  query: QueryReader;
  timestamp: string;
  rawBody: string;
}

const encoder = new TextEncoder();

/** Lower-case hex of bytes. */
export function toHex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Standard base64 of bytes. */
export function toBase64(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/** Query string with pairs sorted by key, then value, each part percent-encoded. */
export function canonicalQuery(query: QueryReader): string {
  return [...query.entries()]
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join("&");
}

/** The exact string a vendor signs, part by part, in declared order. */
export async function stringToSign(req: SignableRequest, rule: Pick<SigningRecipe, "parts" | "separator">): Promise<string> {
  const parts: string[] = [];
  for (const part of rule.parts) {
    switch (part) {
      case "method":
        parts.push(req.method.toUpperCase());
        break;
      case "path":
        parts.push(req.path);
        break;
      case "query":
        parts.push(canonicalQuery(req.query));
        break;
      case "timestamp":
        parts.push(req.timestamp);
        break;
      case "body_sha256":
        parts.push(await sha256Hex(req.rawBody));
        break;
      case "body":
        parts.push(req.rawBody);
        break;
    }
  }
  return parts.join(rule.separator);
}

/** HMAC-SHA256 of the canonical string, in the declared encoding. */
export async function signRequest(req: SignableRequest, rule: SigningRecipe, secret: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(await stringToSign(req, rule)));
  return rule.encoding === "hex" ? toHex(mac) : toBase64(mac);
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
