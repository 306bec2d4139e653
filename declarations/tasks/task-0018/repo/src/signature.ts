import { createHmac, timingSafeEqual } from "node:crypto";

/** Largest clock difference a delivery may have, in seconds. */
export const MAX_SKEW_S = 300;

type Headers = Record<string, string | string[] | undefined>;

/**
 * Checks a Standard Webhooks delivery: `webhook-timestamp` within the window,
 * and a `v1,<base64>` entry of `webhook-signature` equal to the HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` keyed with the base64-decoded part
 * of the `whsec_` secret. Returns why the delivery is refused, or null.
 */
export function verifyDelivery(secret: string, headers: Headers, body: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const one = (name: string) => {
    const v = headers[name];
    return (Array.isArray(v) ? v[0] : v)?.trim();
  };
  const id = one("webhook-id");
  const ts = one("webhook-timestamp");
  const signatures = one("webhook-signature");
  if (!id || !ts || !signatures) return "missing webhook-id, webhook-timestamp or webhook-signature";
  if (!/^\d+$/.test(ts)) return "webhook-timestamp is not in Unix seconds";
  const skew = nowS - Number(ts);
  if (Math.abs(skew) > MAX_SKEW_S) return `webhook-timestamp is ${skew} s away from now`;
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  const expected = createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest();
  for (const entry of signatures.split(" ")) {
    const [version, value] = entry.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return null;
  }
  return "no v1 signature matches";
}
