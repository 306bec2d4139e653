/**
 * The world's `pendingDeliveries` is exact: it counts an event accepted but not
 * yet dispatched, an attempt in flight and a retry waiting on its backoff, so a
 * drive that waits for it to read 0 (`settleWebhooks`) needs no extra pause:
 * once it reads 0, no further delivery of that epoch is made.
 */
import { createServer, type ServerResponse, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm } from "./farm.ts";

let farm: LocalFarm;
let server: Server;
let url = "";
/** Requests the listener holds unanswered until the test lets them go. */
const held: { res: ServerResponse; eventId: string }[] = [];
/** Event ids answered so far: an event's first attempt gets a 503 (so every event is retried once), later ones a 204. */
const answered = new Set<string>();
let received = 0;

beforeAll(async () => {
  farm = await startFarm();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received += 1;
      held.push({ res, eventId: String(JSON.parse(body).id) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
});

afterAll(async () => {
  for (const h of held.splice(0)) h.res.destroy();
  server?.close();
  await farm?.stop();
});

function release(): void {
  for (const { res, eventId } of held.splice(0)) {
    res.statusCode = answered.has(eventId) ? 204 : 503;
    answered.add(eventId);
    res.end();
  }
}

describe("pending deliveries", () => {
  it("count accepted, in-flight and retrying deliveries, and read 0 only once the last delivery is made", async () => {
    const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "talentforge" }, seed: 6, webhookTargets: { ats: url } });
    const pending = async () => (await control(farm, "GET", `/v1/worlds/${w.world}`)).roles.ats.pendingDeliveries as number;
    const log = async () => (await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).records as { eventId: string; attempt: number; responseCode: number | null }[];

    await control(farm, "POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    // Accepted: the recreate's events are queued before it answers.
    expect(await pending()).toBeGreaterThan(0);

    // Each attempt is held until the count has been read: an attempt in flight (the last one
    // included) and a retry on its backoff (the last event's included) must keep it above 0.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const p = await pending();
      if (held.length) {
        expect(p).toBeGreaterThan(0);
        release();
      } else if (p === 0) break;
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 10));
    }

    // The first 0 read: every attempt has been made and logged, and none follows.
    const settled = received;
    const rows = await log();
    expect(rows.length).toBe(settled);
    const events = new Set(rows.map((r) => r.eventId));
    expect(events.size).toBeGreaterThan(1);
    expect(rows.filter((r) => r.attempt === 1).every((r) => r.responseCode === 503)).toBe(true);
    expect(new Set(rows.filter((r) => r.attempt === 2 && r.responseCode === 204).map((r) => r.eventId))).toEqual(events);
    await new Promise((r) => setTimeout(r, 1500));
    expect(received).toBe(settled);
    expect(held).toEqual([]);
  });
});
