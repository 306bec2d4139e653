import { createHmac, timingSafeEqual } from "node:crypto";

/** Interviewly signs with a one-minute window. */
export const MAX_SKEW_S = 60;

type Headers = Record<string, string | string[] | undefined>;

/**
 * Checks an Interviewly delivery: `Interviewly-Timestamp` (Unix seconds)
 * within the window, and `Interviewly-Signature` equal to the hex
 * HMAC-SHA256 of `<timestamp>.<body>` with the subscription's secret.
 * Returns why the delivery is refused, or null.
 */
export function verifyDelivery(secret: string, headers: Headers, body: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const one = (name: string) => {
    const v = headers[name];
    return (Array.isArray(v) ? v[0] : v)?.trim();
  };
  const ts = one("interviewly-timestamp");
  const signature = one("interviewly-signature");
  if (!ts || !signature) return "missing Interviewly-Timestamp or Interviewly-Signature";
  if (!/^\d+$/.test(ts)) return "Interviewly-Timestamp is not Unix seconds";
  const skew = nowS - Number(ts);
  if (Math.abs(skew) > MAX_SKEW_S) return `Interviewly-Timestamp is ${skew} s away from now`;
  const expected = createHmac("sha256", secret).update(`${ts}.${body}`).digest();
  const given = Buffer.from(signature.toLowerCase(), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : "signature does not match";
}
