import { createHmac, timingSafeEqual } from "node:crypto";

/** How far a delivery's timestamp may be from our clock, in seconds. */
export const TOLERANCE_S = 300;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim();
}

/**
 * Verifies a Standard Webhooks delivery. The signed content is
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, HMAC-SHA256 keyed with the
 * base64 part of the `whsec_` secret; `webhook-signature` lists
 * space-separated `v1,<base64>` entries, one of which must match. Returns the
 * reason a delivery is refused, or null when it is genuine and recent.
 */
export function verifyDelivery(secret: string, headers: Headers, body: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) return "webhook-id, webhook-timestamp and webhook-signature are required";
  if (!/^\d+$/.test(timestamp)) return "webhook-timestamp must be Unix seconds";
  const skew = nowS - Number(timestamp);
  if (Math.abs(skew) > TOLERANCE_S) return `webhook-timestamp is ${skew} s off our clock`;
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return "no v1 signature matches";
}
