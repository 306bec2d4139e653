import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import talentloop from "../../declarations/vendors/talentloop.ts";
import { admin, farm, rel } from "./helpers.ts";

/** TalentLoop switches the ack-body protocol on from a checkpoint of its timeline. */
const ack = talentloop.webhooks!.ack!;
const from = ack.fromCheckpoint!;
/** Retries under the protocol: the schedule, cut short by `maxAttempts`. */
const retries = Math.min(talentloop.webhooks!.retrySchedule.length, (ack.maxAttempts ?? Number.POSITIVE_INFINITY) - 1);

type Outgoing = { id: string; eventId: string; attempt: number; body: string };

async function relayWorld(seed: number) {
  const res = await admin("POST", "/v1/worlds", { vendors: { ats: "talentloop" }, seed, webhookTargets: { ats: "http://receiver.test/hooks/tl" }, relay: true });
  expect(res.status).toBe(201);
  return res.body as { world: string; vendors: { ats: { baseUrl: string; credentials: Record<string, string> } } };
}

/** Runs the alarm, then hands out what it parked in the outbox. */
async function deliver(world: string): Promise<Outgoing[]> {
  await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${world}/ats`)));
  return (await admin("GET", `/v1/worlds/${world}/roles/ats/outbox`)).body.deliveries as Outgoing[];
}

async function answer(world: string, d: Outgoing, responseCode: number, body = ""): Promise<void> {
  expect((await admin("POST", `/v1/worlds/${world}/roles/ats/outbox/${d.id}/result`, { responseCode, body })).status).toBe(200);
}

describe("an ack-body protocol switched on from a checkpoint", () => {
  it("acks a bare 2xx before the checkpoint; from it dead-letters an unechoed 2xx after the retry schedule; drains once", async () => {
    const w = await relayWorld(6);
    const base = rel(w.vendors.ats.baseUrl);

    // Before the switch: a bare 204 is an acknowledgement, nothing is retried or dead-lettered.
    const before = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: from - 1 });
    const early = await deliver(w.world);
    expect(early.length).toBeGreaterThan(3);
    await Promise.all(early.map((d) => answer(w.world, d, 204)));
    expect(await deliver(w.world)).toEqual([]);
    const earlyLog = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=${before.body.epoch}`)).body.records as { attempt: number; acked: boolean | null }[];
    expect(earlyLog).toHaveLength(early.length);
    expect(earlyLog.every((r) => r.attempt === 1 && r.acked === null)).toBe(true);

    // From the switch: only an answer echoing the event id in the declared field acknowledges.
    const after = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: from });
    let batch = await deliver(w.world);
    expect(batch.length).toBeGreaterThan(3);
    const [echoed, wrongField, ...bare] = batch;
    await answer(w.world, echoed, 200, JSON.stringify({ [ack.field]: echoed.eventId }));
    await answer(w.world, wrongField, 200, JSON.stringify({ event_id: wrongField.eventId }));
    await Promise.all(bare.map((d) => answer(w.world, d, 200, "")));
    const unacked = new Set([wrongField, ...bare].map((d) => d.eventId));
    // Each alarm hands out the retries due first; keep answering 2xx without the echo until none is left.
    const attempts = new Map<string, number[]>();
    for (let rounds = 0; (batch = await deliver(w.world)).length; rounds++) {
      expect(rounds).toBeLessThan(unacked.size * retries + 1);
      for (const d of batch) attempts.set(d.eventId, [...(attempts.get(d.eventId) ?? []), d.attempt]);
      await Promise.all(batch.map((d) => answer(w.world, d, 200, "{}")));
    }
    expect(new Set(attempts.keys())).toEqual(unacked);
    for (const seen of attempts.values()) expect(seen).toEqual(Array.from({ length: retries }, (_, i) => i + 2));
    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=${after.body.epoch}`)).body.records as { eventId: string; attempt: number; acked: boolean | null }[];
    expect(log).toHaveLength(1 + unacked.size * (retries + 1));
    expect(log.filter((r) => r.acked === true).map((r) => r.eventId)).toEqual([echoed.eventId]);
    expect(log.filter((r) => r.acked === false)).toHaveLength(unacked.size * (retries + 1));

    // The dead letters are the unacknowledged events' bodies, oldest first, handed out once.
    const tokenRes = await farm(`${base}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: w.vendors.ats.credentials.client_id, client_secret: w.vendors.ats.credentials.client_secret }),
    });
    expect(tokenRes.status).toBe(200);
    const { access_token } = (await tokenRes.json()) as { access_token: string };
    const drain = async () => {
      const res = await farm(`${base}${ack.deadLetterPath}`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { id: string }[] }).data;
    };
    const letters = await drain();
    expect(letters.map((e) => e.id)).toEqual([...unacked].sort());
    expect(letters.find((e) => e.id === wrongField.eventId)).toEqual(JSON.parse(wrongField.body));
    expect(await drain()).toEqual([]);

    // Every request of the epoch is logged once, none answered 500.
    const requests = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=${after.body.epoch}`)).body.records as { seq: number; path: string; status: number }[];
    expect(requests.map((r) => r.path)).toEqual([`${base}/token`, `${base}${ack.deadLetterPath}`, `${base}${ack.deadLetterPath}`].map((p) => p.replace(/^\/w\/[^/]+\/[^/]+/, "")));
    expect(new Set(requests.map((r) => r.seq)).size).toBe(requests.length);
    expect(requests.some((r) => r.status >= 500)).toBe(false);
  });

  it("refuses a switch checkpoint the timeline does not have", async () => {
    const { parseVendor } = await import("../../declarations/schema/define.ts");
    expect(() => parseVendor({ ...talentloop, webhooks: { ...talentloop.webhooks!, ack: { ...ack, fromCheckpoint: 99 } } })).toThrow(/no checkpoint 99/);
  });
});
