/**
 * @module signatures/custom
 * A vendor's own pair: hex HMAC of `<timestamp>.<body>` in one header, the
 * Unix timestamp in another.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { defineSignature, parseTimestamp, utf8 } from "./define.ts";

const schema = z.object({ scheme: z.literal("custom"), secret: z.string(), signatureHeader: z.string(), timestampHeader: z.string() });

export const customSignature = defineSignature({
  schema,
  key: (_sig, secret) => utf8(secret),
  content: (msg) => `${msg.timestampS}.${msg.body}`,
  encoding: "hex",
  headers: (sig, msg, signature) => ({ [sig.signatureHeader.toLowerCase()]: signature, [sig.timestampHeader.toLowerCase()]: String(msg.timestampS) }),
  async verify(sig, input) {
    const sigName = sig.signatureHeader.toLowerCase();
    const tsName = sig.timestampHeader.toLowerCase();
    const value = input.get(sigName);
    const tsText = input.get(tsName);
    if (!value) return `missing ${sigName} header`;
    if (!tsText) return `missing ${tsName} header`;
    const ts = parseTimestamp(tsText);
    if (ts === null) return `${tsName} "${tsText}" is not Unix seconds`;
    const stale = input.skewProblem(ts);
    if (stale) return stale;
    const expected = await input.mac({ id: "", timestampS: ts, body: input.body });
    return safeEqual(value.trim().toLowerCase(), expected) ? null : "signature does not match";
  },
  docs: (sig) => [`\`${sig.signatureHeader}\` holds the hex HMAC-SHA256 of \`<timestamp>.<body>\` with your secret; \`${sig.timestampHeader}\` holds the timestamp (Unix seconds).`],
});
