/**
 * @module signatures/github
 * GitHub style: `X-Hub-Signature-256: sha256=<hex HMAC of body>`, no timestamp.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { defineSignature, utf8 } from "./define.ts";

const schema = z.object({ scheme: z.literal("github"), secret: z.string() });

export const githubSignature = defineSignature({
  schema,
  key: (_sig, secret) => utf8(secret),
  content: (msg) => msg.body,
  encoding: "hex",
  timestamped: false,
  headers: (_sig, _msg, signature) => ({ "x-hub-signature-256": `sha256=${signature}` }),
  async verify(_sig, input) {
    const value = input.get("x-hub-signature-256");
    if (!value) return "missing x-hub-signature-256 header";
    if (!value.startsWith("sha256=")) return 'x-hub-signature-256 does not start with "sha256="';
    const expected = await input.mac({ id: "", timestampS: 0, body: input.body });
    return safeEqual(value.slice("sha256=".length).toLowerCase(), expected) ? null : "signature does not match";
  },
  docs: () => ["`X-Hub-Signature-256: sha256=<hex>` holds the HMAC-SHA256 of the body with your secret. Deliveries carry no signed timestamp: use the event id to spot replays."],
});
