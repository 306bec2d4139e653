/**
 * @module signatures/standard
 * Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC of id.timestamp.body>`, keyed with the
 * base64 part of a `whsec_` secret.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { defineSignature, parseTimestamp } from "./define.ts";

const schema = z.object({ scheme: z.literal("standard"), secret: z.string() });

function fromBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new Error("the Standard Webhooks secret is not base64 (expected whsec_<base64>)");
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export const standardSignature = defineSignature({
  schema,
  key: (_sig, secret) => fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret),
  content: (msg) => `${msg.id}.${msg.timestampS}.${msg.body}`,
  encoding: "base64",
  headers: (_sig, msg, signature) => ({ "webhook-id": msg.id, "webhook-timestamp": String(msg.timestampS), "webhook-signature": `v1,${signature}` }),
  async verify(_sig, input) {
    const id = input.get("webhook-id");
    const tsText = input.get("webhook-timestamp");
    const signatures = input.get("webhook-signature");
    if (!id) return "missing webhook-id header";
    if (!tsText) return "missing webhook-timestamp header";
    if (!signatures) return "missing webhook-signature header";
    const ts = parseTimestamp(tsText);
    if (ts === null) return `webhook-timestamp "${tsText}" is not Unix seconds`;
    const stale = input.skewProblem(ts);
    if (stale) return stale;
    const expected = await input.mac({ id, timestampS: ts, body: input.body });
    // A header may carry several space-separated `v1,<sig>` entries (key rotation); one match is enough.
    let matched = false;
    for (const entry of signatures.split(" ")) {
      const comma = entry.indexOf(",");
      if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
      if (safeEqual(entry.slice(comma + 1), expected)) matched = true;
    }
    return matched ? null : "no v1 signature matches";
  },
  docs: () => [
    "Deliveries follow Standard Webhooks: headers `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64>`, the HMAC-SHA256 of `<id>.<timestamp>.<body>` keyed with the base64-decoded part of your `whsec_` secret.",
  ],
});
