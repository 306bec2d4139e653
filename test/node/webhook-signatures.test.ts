import { createHash, createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WebhookSignature } from "../../declarations/schema/webhooks.ts";
import { signatureHeaders, verifySignature } from "../../mechanics/signatures/index.ts";

/**
 * The time every delivery here is signed and checked at. The standardwebhooks
 * library reads the host clock, so the file pins it there too.
 */
const NOW_S = 1_764_640_000;
const nowS = () => NOW_S;
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW_S * 1000);
});
afterAll(() => {
  vi.useRealTimers();
});

/** `n` (at most 32) bytes derived from `label`: a fixed secret per label, different across labels. */
const bytesOf = (label: string, n: number) => createHash("sha256").update(label).digest().subarray(0, n);

const body = JSON.stringify({ type: "candidate.updated", data: { id: "cand_00042", email: "ada@example.com", note: "naïve ✓" } });

/** A secret as the engine mints it for `whsec_` credentials: the prefix and 40 hex characters. */
const engineStyleSecret = (label: string) => `whsec_${bytesOf(label, 20).toString("hex")}`;
/** A secret as Standard Webhooks providers issue it: the prefix and base64 of (here derived, not random) bytes. */
const base64Secret = (label: string) => `whsec_${bytesOf(label, 24).toString("base64")}`;

const SCHEMES: Record<WebhookSignature["scheme"], WebhookSignature> = {
  standard: WebhookSignature.parse({ scheme: "standard", secret: "webhook_secret" }),
  stripe: WebhookSignature.parse({ scheme: "stripe", secret: "webhook_secret", header: "TL-Signature" }),
  github: WebhookSignature.parse({ scheme: "github", secret: "webhook_secret" }),
  custom: WebhookSignature.parse({ scheme: "custom", secret: "webhook_secret", signatureHeader: "X-Hook-Signature", timestampHeader: "X-Hook-Timestamp" }),
};

const hmacHex = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest("hex");
const hmacBase64 = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest("base64");

/**
 * Checks headers against an HMAC computed here with node:crypto, independently of the module:
 * true when the MAC is right for `secret`, false when it is wrong; throws when the headers are malformed.
 */
function independentlyValid(scheme: WebhookSignature, secret: string, headers: Record<string, string>, payload: string): boolean {
  switch (scheme.scheme) {
    case "standard": {
      const id = headers["webhook-id"];
      const ts = headers["webhook-timestamp"];
      expect(id).toBeTruthy();
      expect(ts).toMatch(/^\d+$/);
      const m = /^v1,([A-Za-z0-9+/]+={0,2})$/.exec(headers["webhook-signature"]);
      expect(m, "webhook-signature is v1,<base64>").not.toBeNull();
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      return m![1] === hmacBase64(key, `${id}.${ts}.${payload}`);
    }
    case "stripe": {
      const value = headers[scheme.header.toLowerCase()];
      const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(value);
      expect(m, `${scheme.header} is t=<ts>,v1=<hex>`).not.toBeNull();
      return m![2] === hmacHex(secret, `${m![1]}.${payload}`);
    }
    case "github": {
      const m = /^sha256=([0-9a-f]{64})$/.exec(headers["x-hub-signature-256"]);
      expect(m, "x-hub-signature-256 is sha256=<hex>").not.toBeNull();
      return m![1] === hmacHex(secret, payload);
    }
    case "custom": {
      const value = headers[scheme.signatureHeader.toLowerCase()];
      const ts = headers[scheme.timestampHeader.toLowerCase()];
      expect(value).toMatch(/^[0-9a-f]{64}$/);
      expect(ts).toMatch(/^\d+$/);
      return value === hmacHex(secret, `${ts}.${payload}`);
    }
  }
}

describe("standard scheme against the standardwebhooks library", () => {
  const sig = SCHEMES.standard;

  for (const [label, makeSecret] of [
    ["engine-minted secret", engineStyleSecret],
    ["base64 secret", base64Secret],
  ] as const) {
    it(`accepts a fresh delivery (${label})`, async () => {
      const secret = makeSecret("fresh");
      const headers = await signatureHeaders(sig, secret, { id: "msg_2Lq7", timestampS: nowS(), body });
      expect(Object.keys(headers).sort()).toEqual(["webhook-id", "webhook-signature", "webhook-timestamp"]);
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    });

    it(`rejects a tampered delivery (${label})`, async () => {
      const secret = makeSecret("tampered");
      const headers = await signatureHeaders(sig, secret, { id: "msg_2Lq7", timestampS: nowS(), body }, { tamper: true });
      expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+={0,2}$/);
      expect(() => new Webhook(secret).verify(body, headers)).toThrow(/No matching signature/);
    });
  }

  it("rejects a stale timestamp (more than 5 minutes old)", async () => {
    const secret = base64Secret("stale");
    const headers = await signatureHeaders(sig, secret, { id: "msg_old", timestampS: nowS() - 6 * 60, body });
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });

  it("rejects a delivery signed with another secret, a changed body and a changed id", async () => {
    const secret = base64Secret("one");
    const headers = await signatureHeaders(sig, secret, { id: "msg_1", timestampS: nowS(), body });
    expect(() => new Webhook(base64Secret("another")).verify(body, headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body.replace("ada", "eve"), headers)).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "msg_2" })).toThrow(/No matching signature/);
  });

  it("decodes a secret without the whsec_ prefix as base64 too", async () => {
    const raw = bytesOf("unprefixed", 24).toString("base64");
    const headers = await signatureHeaders(sig, raw, { id: "msg_3", timestampS: nowS(), body });
    expect(new Webhook(raw).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(`whsec_${raw}`).verify(body, headers)).toEqual(JSON.parse(body));
  });
});

describe.each(Object.values(SCHEMES))("$scheme scheme", (sig) => {
  const secret = sig.scheme === "standard" ? engineStyleSecret(`${sig.scheme}/a`) : `whsec_${bytesOf(`${sig.scheme}/a`, 20).toString("hex")}`;
  const otherSecret = sig.scheme === "standard" ? engineStyleSecret(`${sig.scheme}/b`) : `whsec_${bytesOf(`${sig.scheme}/b`, 20).toString("hex")}`;
  const hasTimestamp = sig.scheme !== "github";

  it("signs with an HMAC that an independent node:crypto check reproduces", async () => {
    const ts = nowS();
    const headers = await signatureHeaders(sig, secret, { id: "evt_1", timestampS: ts, body });
    expect(Object.keys(headers).every((k) => k === k.toLowerCase())).toBe(true);
    expect(independentlyValid(sig, secret, headers, body)).toBe(true);
    expect(independentlyValid(sig, otherSecret, headers, body)).toBe(false);
    expect(independentlyValid(sig, secret, headers, `${body} `)).toBe(false);
    // The timestamp is signed and sent by every scheme but GitHub's, which has none.
    expect(Object.values(headers).join(" ").includes(String(ts))).toBe(hasTimestamp);
  });

  it("makes a tampered delivery well formed but wrong", async () => {
    const msg = { id: "evt_2", timestampS: nowS(), body };
    const good = await signatureHeaders(sig, secret, msg);
    const forged = await signatureHeaders(sig, secret, msg, { tamper: true });
    expect(Object.keys(forged).sort()).toEqual(Object.keys(good).sort());
    expect(forged).not.toEqual(good);
    expect(independentlyValid(sig, secret, forged, body)).toBe(false);
  });

  it("verifySignature accepts a good delivery, from a record or a Headers object", async () => {
    const now = nowS();
    const headers = await signatureHeaders(sig, secret, { id: "evt_3", timestampS: now - 10, body });
    expect(await verifySignature(sig, secret, headers, body, now, 300)).toBeNull();
    expect(await verifySignature(sig, secret, new Headers(headers), body, now, 300)).toBeNull();
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(await verifySignature(sig, secret, upper, body, now, 300)).toBeNull();
  });

  it("verifySignature rejects a tampered delivery, another secret, a changed body and missing headers", async () => {
    const now = nowS();
    const msg = { id: "evt_4", timestampS: now, body };
    const good = await signatureHeaders(sig, secret, msg);
    const forged = await signatureHeaders(sig, secret, msg, { tamper: true });
    expect(await verifySignature(sig, secret, forged, body, now, 300)).toMatch(/match/);
    expect(await verifySignature(sig, otherSecret, good, body, now, 300)).toMatch(/match/);
    expect(await verifySignature(sig, secret, good, body.replace("ada", "eve"), now, 300)).toMatch(/match/);
    expect(await verifySignature(sig, secret, {}, body, now, 300)).toMatch(/missing/);
  });

  it(hasTimestamp ? "verifySignature rejects a timestamp outside the allowed skew" : "verifySignature ignores skew (no timestamp)", async () => {
    const now = nowS();
    const old = await signatureHeaders(sig, secret, { id: "evt_5", timestampS: now - 301, body });
    const future = await signatureHeaders(sig, secret, { id: "evt_6", timestampS: now + 301, body });
    const edge = await signatureHeaders(sig, secret, { id: "evt_7", timestampS: now - 300, body });
    expect(await verifySignature(sig, secret, edge, body, now, 300)).toBeNull();
    // Without a timestamp (GitHub's scheme) there is no skew to refuse, and nothing to move.
    const refused = (why: RegExp) => (hasTimestamp ? expect.stringMatching(why) : null);
    expect(await verifySignature(sig, secret, old, body, now, 300)).toEqual(refused(/old/));
    expect(await verifySignature(sig, secret, future, body, now, 300)).toEqual(refused(/future/));
    // The timestamp is signed: moving it back into the window breaks the MAC.
    const moved = Object.fromEntries(Object.entries(old).map(([k, v]) => [k, v.replace(String(now - 301), String(now))]));
    expect(await verifySignature(sig, secret, moved, body, now, 300)).toEqual(refused(/match/));
  });
});
