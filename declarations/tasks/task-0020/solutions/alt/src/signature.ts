import { createHmac, timingSafeEqual } from "node:crypto";

/** Largest clock difference a delivery may have, in seconds (Standard Webhooks tolerance). */
export const MAX_SKEW_S = 300;

/**
 * Verifies a Standard Webhooks delivery: the timestamp is inside the window and
 * one `v1,<base64>` entry is the HMAC-SHA256 of `<id>.<timestamp>.<body>` under the
 * base64-decoded part of the `whsec_` secret. Returns why it fails, or null.
 */
export function verifyDelivery(secret: string, headers: Record<string, string | string[] | undefined>, body: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const one = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const id = one("webhook-id");
  const ts = one("webhook-timestamp");
  const signatures = one("webhook-signature");
  if (!id || !ts || !signatures) return "missing webhook-id, webhook-timestamp or webhook-signature";
  if (!/^\d+$/.test(ts.trim())) return "webhook-timestamp is not Unix seconds";
  const skew = nowS - Number(ts);
  if (Math.abs(skew) > MAX_SKEW_S) return `webhook-timestamp is ${skew} s off (more than ${MAX_SKEW_S} s)`;
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts.trim()}.${body}`).digest();
  for (const entry of signatures.split(" ")) {
    const [version, sig] = entry.split(",", 2);
    if (version !== "v1" || !sig) continue;
    const given = Buffer.from(sig, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return "no v1 signature matches";
}
