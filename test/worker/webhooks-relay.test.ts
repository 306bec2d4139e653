import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, pendingTimeline } from "./helpers.ts";

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
    // First attempts are due at once, so the runtime may already have fired the alarm itself.
    await runDurableObjectAlarm(stub);
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

    // The retry is due a second later; on a loaded machine the real alarm may already have run it.
    await runDurableObjectAlarm(stub);
    const retry = await drain(w.world);
    expect(retry.map((d) => [d.eventId, d.attempt])).toEqual([[first[0].eventId, 2]]);
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${retry[0].id}/result`, { responseCode: 200 });
    expect(await pendingTimeline(w.world, "ats")).toBe(0);

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

describe("webhook faults", () => {
  async function delivered(faults: string[]) {
    const w = await relayWorld(5);
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1, faults });
    await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`)));
    const out = await drain(w.world);
    for (const d of out) await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${d.id}/result`, { responseCode: 400 });
    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).body.records as any[];
    return { out, log, secret: w.vendors.ats.credentials.webhook_secret };
  }

  it("clean: each event once, in order", async () => {
    const { out } = await delivered([]);
    expect(out.map((d) => d.eventId)).toEqual([...new Set(out.map((d) => d.eventId))].sort());
  });

  it("duplicates: every third event three times, the copies flagged", async () => {
    const { out, log } = await delivered(["tf-duplicate-storm"]);
    const third = out.filter((d) => d.eventId === "evt_00003");
    expect(third).toHaveLength(3);
    expect(log.filter((r) => r.eventId === "evt_00003").map((r) => r.duplicate)).toEqual([false, true, true]);
    expect(out.filter((d) => d.eventId === "evt_00001")).toHaveLength(1);
  });

  it("drop: the second event never leaves; reversed: the batch arrives backwards", async () => {
    expect((await delivered(["tf-drop-second-event"])).out.map((d) => d.eventId)).not.toContain("evt_00002");
    const reversed = (await delivered(["tf-reversed-burst"])).out.map((d) => d.eventId);
    expect(reversed).toEqual([...reversed].sort().reverse());
  });

  it("drop beats duplicates: an event the vendor never sent has no copies either", async () => {
    let collisions = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const res = await admin("POST", "/v1/worlds", { vendors: { ats: "talentloop" }, seed, webhookTargets: { ats: "http://receiver.test/hooks/tl" }, relay: true });
      const w = res.body.world as string;
      await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 1, faults: ["tl-duplicate-storm", "tl-drop-first-candidate-delete"] });
      await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${w}/ats`)));
      const ids = (await drain(w)).map((d) => Number(d.eventId.slice(4)));
      const missing = Array.from({ length: Math.max(...ids) }, (_, i) => i + 1).filter((n) => !ids.includes(n));
      expect(missing, `seed ${seed}`).toHaveLength(1);
      // Every second event is duplicated: an even-numbered dropped event is where the two faults meet.
      if (missing[0] % 2 === 0) collisions += 1;
    }
    expect(collisions).toBeGreaterThan(0);
  });

  it("tamper and stale: injected deliveries carry a wrong signature or an old timestamp and are flagged", async () => {
    const { out, log, secret } = await delivered(["tf-forged-delivery", "tf-stale-delivery"]);
    const forged = log.find((r) => r.tampered);
    const stale = log.find((r) => r.skewS === 900);
    expect(forged).toMatchObject({ eventId: "evt_00002", duplicate: false });
    expect(stale).toMatchObject({ eventId: "evt_00003", tampered: false });
    const forgedOut = out.filter((d) => d.eventId === "evt_00002");
    const validity = await Promise.all(forgedOut.map(async (d) => d.headers["x-tf-signature"] === (await hmacHex(secret, `${d.headers["x-tf-timestamp"]}.${d.body}`))));
    expect(validity.sort()).toEqual([false, true]);
    const staleOut = out.filter((d) => d.eventId === "evt_00003").map((d) => Number(d.headers["x-tf-timestamp"]));
    expect(Math.max(...staleOut) - Math.min(...staleOut)).toBeGreaterThanOrEqual(899);
    expect(log.filter((r) => r.tampered || r.skewS).every((r) => r.attempt === 1)).toBe(true);
  });
});

describe("subscription through the vendor's own endpoint (talentloop)", () => {
  it("answers and records the URL a client posts, refuses a bad URL, and still delivers Standard Webhooks only to the registered receiver", async () => {
    const res = await admin("POST", "/v1/worlds", { vendors: { ats: "talentloop" }, seed: 2, relay: true, webhookTargets: { ats: "http://listener.test/hooks" } });
    const w = res.body;
    const base = `/w/${w.world}/ats`;
    const { farm } = await import("./helpers.ts");
    const tok = (await (
      await farm(`${base}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: w.vendors.ats.credentials.client_id, client_secret: w.vendors.ats.credentials.client_secret }).toString(),
      })
    ).json()) as { access_token: string };
    const auth = { authorization: `Bearer ${tok.access_token}`, "content-type": "application/json" };
    expect((await farm(`${base}/webhooks/subscriptions`, { method: "POST", headers: auth, body: JSON.stringify({ url: "ftp://nope" }) })).status).toBe(422);
    const sub = await farm(`${base}/webhooks/subscriptions`, { method: "POST", headers: auth, body: JSON.stringify({ url: "http://10.0.0.7/sandbox?q=secret" }) });
    expect(sub.status).toBe(201);
    const logged = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`)).body.records.at(-1);
    expect(logged).toMatchObject({ method: "POST", path: "/webhooks/subscriptions", status: 201, body: { url: "http://10.0.0.7/sandbox?q=secret" } });
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`)));
    const out = await drain(w.world);
    expect(out.length).toBeGreaterThan(3);
    expect(out.every((d) => d.url === "http://listener.test/hooks" && d.headers["webhook-signature"]?.startsWith("v1,") && d.headers["webhook-id"] === d.eventId)).toBe(true);
    expect(JSON.parse(out[0].body).data).toHaveProperty("id");
  });
});
