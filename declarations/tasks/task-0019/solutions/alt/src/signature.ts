import { createHmac, timingSafeEqual } from "node:crypto";

/** Standard Webhooks tolerance between the delivery's timestamp and our clock, in seconds. */
const TOLERANCE_S = 300;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return (Array.isArray(v) ? v[0] : v)?.trim();
}

/**
 * Checks a delivery the Standard Webhooks way: `webhook-timestamp` within the
 * tolerance, and one `v1,` signature equal to HMAC-SHA256 over
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the decoded secret.
 * Answers null when the delivery is genuine, otherwise the reason.
 */
export function refuseDelivery(secret: string, headers: Headers, rawBody: string): string | null {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !timestamp || !signature) return "unsigned delivery";
  if (!/^\d{1,12}$/.test(timestamp)) return "bad webhook-timestamp";
  const drift = Math.abs(Date.now() / 1000 - Number(timestamp));
  if (drift > TOLERANCE_S) return `timestamp ${Math.round(drift)} s away from our clock`;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const want = createHmac("sha256", key).update(`${id}.${timestamp}.${rawBody}`).digest();
  const match = signature.split(/\s+/).some((part) => {
    const comma = part.indexOf(",");
    if (comma < 0 || part.slice(0, comma) !== "v1") return false;
    const got = Buffer.from(part.slice(comma + 1), "base64");
    return got.length === want.length && timingSafeEqual(got, want);
  });
  return match ? null : "signature does not match";
}
