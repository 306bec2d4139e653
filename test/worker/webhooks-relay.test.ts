import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin } from "./helpers.ts";

const encoder = new TextEncoder();

/** An HMAC written here, independent of the engine's signing module. */
async function hmacHex(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(text)))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function relayWorld(seed = 4) {
  const res = await admin("POST", "/v1/worlds", { vendors: { ats: "talentforge" }, seed, webhookTargets: { ats: "http://receiver.test/hooks/tf" }, relay: true });
  expect(res.status).toBe(201);
  return res.body as { world: string; vendors: { ats: { credentials: Record<string, string> } } };
}

async function drain(world: string) {
  return (await admin("GET", `/v1/worlds/${world}/roles/ats/outbox`)).body.deliveries as { id: string; eventId: string; attempt: number; url: string; headers: Record<string, string>; body: string }[];
}

describe("webhooks through the relay outbox", () => {
  it("delivers the checkpoint's events, signed, id-only, in order; retries a failure on the declared backoff; logs every attempt once", async () => {
    const w = await relayWorld();
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    const stub = env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const first = await drain(w.world);
    expect(first.length).toBeGreaterThan(10);
    expect(first.map((d) => d.eventId)).toEqual(first.map((_, i) => `evt_${String(i + 1).padStart(5, "0")}`));
    expect(await drain(w.world)).toEqual([]);

    const secret = w.vendors.ats.credentials.webhook_secret;
    for (const d of first) {
      expect(d.url).toBe("http://receiver.test/hooks/tf");
      const ts = d.headers["x-tf-timestamp"];
      expect(d.headers["x-tf-signature"]).toBe(await hmacHex(secret, `${ts}.${d.body}`));
      const body = JSON.parse(d.body);
      expect(body.id).toBe(d.eventId);
      expect(body.type).toMatch(/^(candidate|application)\.(created|updated|deleted)$/);
      expect(Object.keys(body.data)).toEqual(["id"]);
    }

    for (const [i, d] of first.entries()) {
      const res = await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${d.id}/result`, { responseCode: i === 0 ? 500 : 204 });
      expect(res.status).toBe(200);
    }
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${first[1].id}/result`, { responseCode: 200 })).status).toBe(404);

    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const retry = await drain(w.world);
    expect(retry.map((d) => [d.eventId, d.attempt])).toEqual([[first[0].eventId, 2]]);
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${retry[0].id}/result`, { responseCode: 200 });
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).body.records;
    expect(log).toHaveLength(first.length + 1);
    expect(log[0]).toMatchObject({ eventId: "evt_00001", attempt: 1, responseCode: 500, statusCode: 500, via: "relay", tampered: false, duplicate: false });
    expect(log.at(-1)).toMatchObject({ eventId: "evt_00001", attempt: 2, responseCode: 200 });
  });

  it("gives identical event ids, types and order for the same seed", async () => {
    const bodies = async () => {
      const w = await relayWorld(9);
      await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 2 });
      await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`)));
      return (await drain(w.world)).map((d) => d.body);
    };
    const [a, b] = [await bodies(), await bodies()];
    expect(a.length).toBeGreaterThan(5);
    expect(b).toEqual(a);
  });

  it("rejects a bad relay result and an unknown webhook role", async () => {
    const w = await relayWorld();
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/x/result`, { responseCode: 999 })).status).toBe(400);
    expect((await admin("POST", "/v1/worlds", { vendors: { ats: "talentforge" }, webhookTargets: { hris: "http://x.test/" } })).status).toBe(400);
  });
});
