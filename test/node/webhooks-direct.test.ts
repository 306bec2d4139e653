import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm } from "./farm.ts";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

let farm: LocalFarm;
let server: Server;
let url = "";
const received: Received[] = [];
let failFirst = 0;

beforeAll(async () => {
  farm = await startFarm();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = failFirst > 0 ? (failFirst--, 503) : 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address() as { port: number };
  url = `http://127.0.0.1:${addr.port}/hooks`;
});

afterAll(async () => {
  server?.close();
  await farm?.stop();
});

async function until(cond: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("webhooks delivered directly by the local farm", () => {
  it("POSTs signed events to a real listener, retries a 503 on the backoff, and announces API writes", async () => {
    const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "talentforge" }, seed: 6, webhookTargets: { ats: url } });
    const secret = w.vendors.ats.credentials.webhook_secret;
    failFirst = 1;
    await control(farm, "POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    const log = async () => (await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).records as any[];
    await until(async () => (await log()).some((r) => r.attempt === 2));
    const events = new Set(received.map((r) => JSON.parse(r.body).id));
    await until(async () => new Set((await log()).filter((r) => r.responseCode === 204).map((r) => r.eventId)).size === events.size);

    for (const r of received) {
      const ts = String(r.headers["x-tf-timestamp"]);
      expect(r.headers["x-tf-signature"]).toBe(createHmac("sha256", secret).update(`${ts}.${r.body}`).digest("hex"));
      expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(60);
    }
    const rows = await log();
    const retried = rows.filter((r) => r.attempt === 2);
    expect(retried).toHaveLength(1);
    const firstTry = rows.find((r) => r.eventId === retried[0].eventId && r.attempt === 1);
    expect(firstTry.responseCode).toBe(503);
    expect(retried[0].ts - firstTry.ts).toBeGreaterThanOrEqual(0.9);
    expect(rows.every((r) => r.via === "direct" && r.target === url)).toBe(true);

    const before = received.length;
    const token: any = await (
      await fetch(`${w.vendors.ats.baseUrl}/oauth/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: w.vendors.ats.credentials.client_id, client_secret: w.vendors.ats.credentials.client_secret }),
      })
    ).json();
    const session: any = await (await fetch(`${w.vendors.ats.baseUrl}/rest/login`, { method: "POST", headers: { authorization: `Bearer ${token.access_token}` } })).json();
    const created = await fetch(`${w.vendors.ats.baseUrl}/rest/candidates`, {
      method: "POST",
      headers: { "x-tf-session": session.session_token, "content-type": "application/json", "idempotency-key": "k1" },
      body: JSON.stringify({ given_name: "Ada", family_name: "Obi", email: "ada.obi@example.com" }),
    });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as any).id;
    await until(() => received.length > before);
    const event = JSON.parse(received.at(-1)!.body);
    expect(event).toMatchObject({ type: "candidate.created", data: { id } });
  });
});

describe("the harness relay", () => {
  it("delivers outbox items to a local receiver and the log reads like direct delivery, via relay", async () => {
    const { relayOnce } = await import("../../scripts/harness/relay.ts");
    const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "talentforge" }, seed: 6, webhookTargets: { ats: url }, relay: true });
    const before = received.length;
    await control(farm, "POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    const handle = { url: farm.url, adminToken: farm.adminToken, close: async () => {} };
    let relayed = 0;
    await until(async () => (relayed += await relayOnce(handle, w.world, "ats")) > 0);
    const rows = (await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).records as any[];
    expect(rows).toHaveLength(relayed);
    expect(received.length - before).toBe(relayed);
    expect(rows.every((r) => r.via === "relay" && r.responseCode === 204)).toBe(true);
  });
});

describe("relay and direct delivery", () => {
  it("give the same delivery log for the same seed and faults", async () => {
    const { relayOnce } = await import("../../scripts/harness/relay.ts");
    const handle = { url: farm.url, adminToken: farm.adminToken, close: async () => {} };
    const run = async (relay: boolean) => {
      const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "talentforge" }, seed: 12, webhookTargets: { ats: url }, relay });
      await control(farm, "POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1, faults: ["tf-duplicate-storm", "tf-forged-delivery"] });
      await until(async () => {
        if (relay) await relayOnce(handle, w.world, "ats");
        const status = await control(farm, "GET", `/v1/worlds/${w.world}`);
        return status.roles.ats.pendingDeliveries === 0 && (await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).records.length > 0;
      });
      const rows = (await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).records as any[];
      return rows.map((r) => [r.eventId, r.attempt, r.responseCode, r.tampered, r.duplicate, r.skewS, r.via]);
    };
    failFirst = 0;
    const direct = await run(false);
    const relayed = await run(true);
    expect(direct.length).toBeGreaterThan(5);
    expect(direct.some((r) => r[3] === true) && direct.some((r) => r[4] === true)).toBe(true);
    expect(relayed.map((r) => r.slice(0, 6))).toEqual(direct.map((r) => r.slice(0, 6)));
    expect(new Set(direct.map((r) => r[6]))).toEqual(new Set(["direct"]));
    expect(new Set(relayed.map((r) => r[6]))).toEqual(new Set(["relay"]));
  });
});
