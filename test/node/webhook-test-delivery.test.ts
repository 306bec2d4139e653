/**
 * Issue 28's proof, on a real local farm: a development world of task-0017
 * (TalentLoop, as an attempt creates it) delivers a signed test event to a
 * listener on 127.0.0.1 within 5 s of the request, and a refused one is
 * retried and ends where TalentLoop keeps dead letters, exactly as a real
 * event would. The listener verifies Standard Webhooks signatures itself.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { EventEmitter } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import talentloop from "../../declarations/vendors/talentloop.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm } from "./farm.ts";

interface Received {
  atMs: number;
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; data: Record<string, unknown> };
}

const hooks = talentloop.webhooks!;
let farm: LocalFarm;
let server: Server;
let url = "";
const received: Received[] = [];
/** Emits "delivery" as each delivery reaches the listener. */
const arrivals = new EventEmitter();
/** How the listener answers: acknowledge (2xx with the ack body), or refuse. */
let answer: "ack" | "503" | "wrong-ack" = "ack";

beforeAll(async () => {
  farm = await startFarm();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const event = JSON.parse(body);
      received.push({ atMs: Date.now(), headers: req.headers, body, event });
      arrivals.emit("delivery");
      res.setHeader("content-type", "application/json");
      if (answer === "503") res.statusCode = 503;
      res.end(JSON.stringify({ [hooks.ack!.field]: answer === "ack" ? event.id : "not-this-event" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/talentloop`;
});

afterAll(async () => {
  server?.close();
  await farm?.stop();
});

/**
 * What `pick` finds among the listener's deliveries, as soon as a delivery
 * makes it true: woken by each arrival, never by a timer; fails after `ms`.
 */
function arrival<T>(what: string, pick: () => T | undefined, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const v = pick();
      if (v === undefined) return;
      clearTimeout(timer);
      arrivals.off("delivery", check);
      resolve(v);
    };
    const timer = setTimeout(() => {
      arrivals.off("delivery", check);
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    arrivals.on("delivery", check);
    check();
  });
}

/**
 * The farm's own state, read until `get` finds it (at most `ms`). The farm is
 * a real process on the host's clock, which the test cannot move, and it
 * emits no event for what it writes after the listener answered (a delivery
 * row, a dead letter) or for a checkpoint's deliveries being done.
 */
async function farmState<T>(what: string, get: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Standard Webhooks, written here from the spec: HMAC-SHA256 of `id.timestamp.body`, keyed with the base64 part of `whsec_...`. */
function verifyStandard(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers["webhook-id"]);
  const ts = String(headers["webhook-timestamp"]);
  const expected = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
    .update(`${id}.${ts}.${body}`)
    .digest();
  return String(headers["webhook-signature"] ?? "")
    .split(" ")
    .some((entry) => {
      const [version, sig] = entry.split(",");
      const given = Buffer.from(sig ?? "", "base64");
      return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

describe("a development world of task-0017", () => {
  it("delivers a signed test event within 5 s, and a refused one is retried and ends in TalentLoop's dead letters", { timeout: 90_000 }, async () => {
    // As an attempt creates it: the task's world, its receiver registered at creation.
    const dev = await control(farm, "POST", "/v1/worlds", { task: "task-0017", seed: 17, webhookTargets: { ats: url } });
    const ats = dev.vendors.ats;
    const secret: string = ats.credentials[hooks.signature.secret];

    // The world's own docs (the task's stale profile) name the route and its body.
    const page = await (await fetch(`${ats.baseUrl}/_docs/webhooks.md`)).text();
    expect(page).toContain(`\`POST ${hooks.testDelivery!.path}\` with \`{"${hooks.testDelivery!.typeField}":"candidate.created"}\``);

    const auth: Record<string, string> = { "content-type": "application/json" };
    /** TalentLoop's client-credentials token (a recreate forgets tokens). */
    const login = async () => {
      const res = await fetch(`${ats.baseUrl}/token`, {
        method: "POST",
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: ats.credentials.client_id, client_secret: ats.credentials.client_secret }),
      });
      expect(res.status).toBe(200);
      auth.authorization = `Bearer ${((await res.json()) as { access_token: string }).access_token}`;
    };
    await login();
    const sendTest = async (type: string) => {
      const sentMs = Date.now();
      const res = await fetch(`${ats.baseUrl}${hooks.testDelivery!.path}`, { method: "POST", headers: auth, body: JSON.stringify({ [hooks.testDelivery!.typeField]: type }) });
      const body = (await res.json()) as { id: string; type: string };
      expect(res.status, JSON.stringify(body)).toBe(202);
      return { sentMs, id: body.id };
    };
    const deliveries = async (epoch: number) =>
      (await control(farm, "GET", `/v1/worlds/${dev.world}/roles/ats/webhooks?epoch=${epoch}`)).records as { eventId: string; attempt: number; responseCode: number | null; ts: number }[];
    const deadLetters = async () => {
      const res = await fetch(`${ats.baseUrl}${hooks.ack!.deadLetterPath}`, { headers: auth });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { id: string }[] }).data;
    };

    // 1. Acknowledged: the signed event arrives within 5 s, on the listener's clock.
    const ok = await sendTest("candidate.created");
    const got = await arrival("the test event", () => received.find((r) => r.event.id === ok.id), 5_000);
    const latencyMs = got.atMs - ok.sentMs;
    console.log(`test event delivered ${latencyMs} ms after the request`);
    expect(latencyMs).toBeLessThan(5_000);
    expect(got.event.type).toBe("candidate.created");
    expect(verifyStandard(secret, got.headers, got.body)).toBe(true);
    expect(verifyStandard(secret, got.headers, got.body.replace("candidate.created", "candidate.updated"))).toBe(false);
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - got.atMs / 1000)).toBeLessThanOrEqual(hooks.maxSkewS);
    expect(got.event.data).toMatchObject({ id: expect.any(String) });
    expect(await farmState("the delivery row", async () => (await deliveries(0)).find((r) => r.eventId === ok.id))).toMatchObject({ attempt: 1, responseCode: 200 });

    // 2. Refused at checkpoint 0, before TalentLoop's ack protocol: retried on the whole schedule, then given up; no dead letter.
    answer = "503";
    const early = await sendTest("application.updated");
    const attemptsAt0 = hooks.retrySchedule.length + 1;
    await arrival("every retry at checkpoint 0", () => (received.filter((r) => r.event.id === early.id).length === attemptsAt0 ? true : undefined));
    const early4 = await farmState("the last retry's row", async () => {
      const rows = (await deliveries(0)).filter((r) => r.eventId === early.id);
      return rows.length === attemptsAt0 ? rows : undefined;
    });
    expect(early4.map((r) => [r.attempt, r.responseCode])).toEqual(hooks.retrySchedule.map((_, i) => [i + 1, 503]).concat([[attemptsAt0, 503]]));
    expect(await deadLetters()).toEqual([]);

    // 3. From checkpoint 4 (the operator moves the world there), a refusal ends in the dead-letter queue after maxAttempts.
    answer = "ack";
    await control(farm, "POST", `/v1/worlds/${dev.world}/roles/ats/recreate`, { checkpoint: 4 });
    await farmState("the checkpoint's events", async () => ((await control(farm, "GET", `/v1/worlds/${dev.world}`)).roles.ats.pendingDeliveries === 0 ? true : undefined));
    await login();
    answer = "wrong-ack";
    const refused = await sendTest("candidate.updated");
    await arrival("every attempt of the refused event", () => (received.filter((r) => r.event.id === refused.id).length === hooks.ack!.maxAttempts ? true : undefined));
    const dead = await farmState("the dead letter", async () => {
      const letters = await deadLetters();
      return letters.length ? letters : undefined;
    });
    console.log(`refused test event dead-lettered ${Date.now() - refused.sentMs} ms after the request`);
    const sent = received.filter((r) => r.event.id === refused.id);
    expect(sent).toHaveLength(hooks.ack!.maxAttempts!);
    expect(sent.every((r) => verifyStandard(secret, r.headers, r.body))).toBe(true);
    expect(dead).toEqual([JSON.parse(sent[0].body)]);
    const rows = (await deliveries(1)).filter((r) => r.eventId === refused.id);
    expect(rows.map((r) => [r.attempt, r.responseCode])).toEqual(sent.map((_, i) => [i + 1, 200]));
    expect(rows[1].ts - rows[0].ts).toBeGreaterThanOrEqual(hooks.retrySchedule[0] - 0.1);
    expect(await deadLetters()).toEqual([]);

    // Every test request is one request row.
    const log = (await control(farm, "GET", `/v1/worlds/${dev.world}/roles/ats/requests`)).records as { path: string; status: number }[];
    expect(log.filter((r) => r.path === hooks.testDelivery!.path).map((r) => r.status)).toEqual([202, 202, 202]);
  });
});
