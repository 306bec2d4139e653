/**
 * @module signatures/stripe
 * Stripe style: one header `t=<ts>,v1=<hex HMAC of ts.body>`.
 */
import { z } from "zod";
import { safeEqual } from "../kit/hmac.ts";
import { defineSignature, parseTimestamp, utf8 } from "./define.ts";

const schema = z.object({ scheme: z.literal("stripe"), secret: z.string(), header: z.string().default("X-Signature") });

export const stripeSignature = defineSignature({
  schema,
  key: (_sig, secret) => utf8(secret),
  content: (msg) => `${msg.timestampS}.${msg.body}`,
  encoding: "hex",
  headers: (sig, msg, signature) => ({ [sig.header.toLowerCase()]: `t=${msg.timestampS},v1=${signature}` }),
  async verify(sig, input) {
    const name = sig.header.toLowerCase();
    const value = input.get(name);
    if (!value) return `missing ${name} header`;
    let tsText: string | undefined;
    const v1: string[] = [];
    for (const pair of value.split(",")) {
      const eq = pair.indexOf("=");
      if (eq < 0) continue;
      const k = pair.slice(0, eq).trim();
      const v = pair.slice(eq + 1).trim();
      if (k === "t") tsText = v;
      else if (k === "v1") v1.push(v.toLowerCase());
    }
    if (tsText === undefined) return `${name} has no t= timestamp`;
    if (!v1.length) return `${name} has no v1= signature`;
    const ts = parseTimestamp(tsText);
    if (ts === null) return `${name} timestamp "${tsText}" is not Unix seconds`;
    const stale = input.skewProblem(ts);
    if (stale) return stale;
    const expected = await input.mac({ id: "", timestampS: ts, body: input.body });
    let matched = false;
    for (const candidate of v1) if (safeEqual(candidate, expected)) matched = true;
    return matched ? null : "no v1 signature matches";
  },
  docs: (sig) => [`The \`${sig.header}\` header holds \`t=<timestamp>,v1=<hex>\`: the HMAC-SHA256 of \`<timestamp>.<body>\` with your secret.`],
});
