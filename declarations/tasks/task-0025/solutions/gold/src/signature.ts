import { createHmac, timingSafeEqual } from "node:crypto";

/** Largest distance between a delivery's timestamp and our clock, in seconds. */
export const MAX_SKEW_S = 300;

/**
 * Checks a TalentForge delivery: `X-TF-Timestamp` is Unix seconds within the
 * window, and `X-TF-Signature` is the hex HMAC-SHA256 of `<timestamp>.<body>`
 * keyed with the webhook secret as given. Returns why it fails, or null.
 */
export function verifyDelivery(secret: string, headers: Record<string, string | string[] | undefined>, body: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const one = (name: string) => {
    const v = headers[name];
    return (Array.isArray(v) ? v[0] : v)?.trim();
  };
  const ts = one("x-tf-timestamp");
  const sig = one("x-tf-signature");
  if (!ts || !sig) return "missing X-TF-Timestamp or X-TF-Signature";
  if (!/^\d+$/.test(ts)) return "X-TF-Timestamp is not Unix seconds";
  const skew = nowS - Number(ts);
  if (Math.abs(skew) > MAX_SKEW_S) return `X-TF-Timestamp is ${skew} s away from our clock`;
  const expected = createHmac("sha256", secret).update(`${ts}.${body}`).digest();
  const given = /^[0-9a-f]+$/i.test(sig) ? Buffer.from(sig, "hex") : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return "signature does not match";
  return null;
}
