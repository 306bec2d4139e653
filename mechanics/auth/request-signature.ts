/**
 * @module auth/request-signature
 * A per-request HMAC-SHA256 signature over declared parts of the request
 * (method, path, sorted query, timestamp, body digest or body), with a
 * timestamp header checked against the vendor clock.
 */
import { z } from "zod";
import { safeEqual, signRequest } from "../kit/hmac.ts";
import { defineScheme, OK } from "./define.ts";

/** Parts of a request that an HMAC signature covers, in order. */
export const SignedPart = z.enum(["method", "path", "query", "timestamp", "body_sha256", "body"]);

export const HmacRequirement = z.object({
  kind: z.literal("hmac"),
  /** Credential holding the signing secret. */
  secret: z.string(),
  /** Header carrying the signature. */
  signatureHeader: z.string(),
  /** Header carrying the request timestamp. */
  timestampHeader: z.string(),
  /** Unit of the timestamp header. */
  timestampUnit: z.enum(["s", "ms"]),
  /** Signed parts in order; `query` is the query string with keys sorted. */
  parts: z.array(SignedPart).min(1),
  /** String joining the parts. */
  separator: z.string(),
  encoding: z.enum(["hex", "base64"]),
  /** Largest accepted difference between the timestamp and the vendor clock. */
  allowedSkewS: z.number().int().positive(),
});
export type HmacRequirement = z.infer<typeof HmacRequirement>;

const PART_NAMES: Record<string, string> = {
  method: "the HTTP method, upper case",
  path: "the path relative to the base URL, without the query string",
  query: "the query string with parameters sorted by name, then value, each percent-encoded, joined by `&` (empty when there is none)",
  timestamp: "the value of the timestamp header",
  body_sha256: "the lower-case hex SHA-256 of the raw request body (of the empty string when there is none)",
  body: "the raw request body",
};

export const requestSignature = defineScheme({
  schema: HmacRequirement,
  refs: (p) => [{ key: "secret", credential: p.secret }],
  async verify(rule, req, ctx) {
    const signature = req.headers.get(rule.signatureHeader);
    const timestamp = req.headers.get(rule.timestampHeader);
    if (!signature || !timestamp) return { outcome: "missing", reason: `${rule.signatureHeader} and ${rule.timestampHeader} are required`, code: "signature_missing" };
    if (!/^\d{1,16}$/.test(timestamp.trim())) return { outcome: "invalid", reason: `${rule.timestampHeader} must be an integer`, code: "timestamp_invalid" };
    const tsS = rule.timestampUnit === "ms" ? Number(timestamp) / 1000 : Number(timestamp);
    const vendorS = req.nowMs / 1000 + ctx.clockOffsetS;
    if (Math.abs(tsS - vendorS) > rule.allowedSkewS) {
      return { outcome: "invalid", reason: `${rule.timestampHeader} is outside the allowed window of ${rule.allowedSkewS}s`, code: "timestamp_out_of_window" };
    }
    const expected = await signRequest({ method: req.method, path: req.path, query: req.query, timestamp, rawBody: req.rawBody }, rule, ctx.credentials[rule.secret]);
    if (!safeEqual(signature.trim(), expected)) {
      const recipe = `the server signs ${rule.parts.join(" + ")} joined by ${JSON.stringify(rule.separator)}`;
      return { outcome: "invalid", reason: `signature does not match (${recipe})`, code: "signature_mismatch" };
    }
    return OK;
  },
  secretHeaders: (p) => [p.signatureHeader],
  headerNames: (p) => [p.signatureHeader, p.timestampHeader],
  renameHeader(p, from, to) {
    if (p.signatureHeader.toLowerCase() === from.toLowerCase()) p.signatureHeader = to;
    if (p.timestampHeader.toLowerCase() === from.toLowerCase()) p.timestampHeader = to;
  },
  recipe: {
    get: (p) => ({ parts: [...p.parts], separator: p.separator }),
    set(p, r) {
      Object.assign(p, { parts: r.parts, separator: r.separator });
    },
  },
  docs: {
    every: (p) => [
      `- \`${p.timestampHeader}\`: the current time in ${p.timestampUnit === "s" ? "seconds" : "milliseconds"} since the Unix epoch. Requests more than ${p.allowedSkewS} s away from the server clock are refused; the server clock is in the \`Date\` response header.`,
      `- \`${p.signatureHeader}\`: HMAC-SHA256 with the \`${p.secret}\` credential over the string below, ${p.encoding === "hex" ? "lower-case hex" : "base64"}.`,
      "",
      `The string to sign joins these parts with ${JSON.stringify(p.separator)}:`,
      "",
      ...p.parts.map((part, i) => `${i + 1}. ${PART_NAMES[part]}`),
      "",
      `\`\`\`\n${p.parts.map((part) => `<${part}>`).join(JSON.stringify(p.separator).slice(1, -1))}\n\`\`\``,
    ],
    curl: (p) => `-H "${p.timestampHeader}: $TS" -H "${p.signatureHeader}: $SIGNATURE"`,
    securityName: () => "requestSignature",
    securityScheme: (p) => ({
      type: "apiKey",
      in: "header",
      name: p.signatureHeader,
      description: "HMAC-SHA256 request signature; see x-wirebench-signature for the recipe.",
      "x-wirebench-signature": {
        secret: p.secret,
        timestampHeader: p.timestampHeader,
        timestampUnit: p.timestampUnit,
        parts: p.parts,
        separator: p.separator,
        encoding: p.encoding,
        allowedSkewS: p.allowedSkewS,
      },
    }),
  },
});
