import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { WorldObject } from "../../workers/world/world-object.ts";
import { admin, farm, rel, roleObject, type RoleInfo } from "./helpers.ts";

/**
 * A replayed read must be the read served afresh. Twin worlds (same vendor,
 * same seed) take the same requests; one replays repeated reads, the other
 * has replays turned off. Every answer and every log row must agree, but for
 * what differs between any two worlds (ids, credentials) and any two
 * requests (time).
 */

interface Engine {
  replaysReads: boolean;
  replays: { size: number };
}

async function engineOf(world: string, run: (engine: Engine) => void): Promise<void> {
  await runInDurableObject(roleObject(world, "ats"), (o: WorldObject) => run((o as unknown as { engine: Engine }).engine));
}

interface Step {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Twin {
  world: string;
  info: RoleInfo;
  seen: { status: number; headers: [string, string][]; text: string }[];
}

/** Rewrites what legitimately differs between the twins: world ids and credential values. */
function normalise(twin: Twin, text: string): string {
  let out = text.split(twin.world).join("<world>");
  for (const [name, value] of Object.entries(twin.info.credentials)) out = out.split(value).join(`<${name}>`);
  return out;
}

async function world(vendor: string, rateLimits: boolean): Promise<{ world: string; vendors: Record<string, RoleInfo> }> {
  const res = await admin("POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 7, rateLimits });
  expect(res.status).toBe(201);
  return res.body;
}

async function twins(vendor: string, rateLimits = false): Promise<[Twin, Twin]> {
  const a = await world(vendor, rateLimits);
  const b = await world(vendor, rateLimits);
  await engineOf(b.world, (e) => {
    e.replaysReads = false;
  });
  return [
    { world: a.world, info: a.vendors.ats, seen: [] },
    { world: b.world, info: b.vendors.ats, seen: [] },
  ];
}

/** Sends a step to both twins; `auth` gives a twin's credential headers. */
async function send(pair: [Twin, Twin], auth: (info: RoleInfo) => Record<string, string>, step: Step): Promise<void> {
  for (const twin of pair) {
    const res = await farm(rel(twin.info.baseUrl) + step.path, { method: step.method ?? "GET", headers: { ...auth(twin.info), ...step.headers }, body: step.body });
    const headers = [...res.headers].filter(([name]) => name !== "date");
    twin.seen.push({ status: res.status, headers, text: await res.text() });
  }
}

/**
 * Both twins' answers and log rows, normalised. `clocked` names the headers
 * (and the row field `retryAfter`) that tell the time a rate limit reopens,
 * which the twins, served a moment apart, may round differently.
 */
async function compare(pair: [Twin, Twin], clocked: string[] = []): Promise<void> {
  const [a, b] = pair;
  expect(a.seen.length).toBeGreaterThan(0);
  const headers = (twin: Twin, i: number) => normalise(twin, JSON.stringify(twin.seen[i].headers.filter(([name]) => !clocked.includes(name))));
  for (let i = 0; i < a.seen.length; i++) {
    expect(a.seen[i].status, `answer ${i}`).toBe(b.seen[i].status);
    expect(normalise(a, a.seen[i].text), `answer ${i}`).toBe(normalise(b, b.seen[i].text));
    expect(headers(a, i), `answer ${i}`).toBe(headers(b, i));
  }
  const rows = async (twin: Twin) => {
    const log = await admin("GET", `/v1/worlds/${twin.world}/roles/ats/requests`);
    expect(log.status).toBe(200);
    const entries = log.body.records as { ts: number; retryAfter: number | null }[];
    return entries.map(({ ts: _ts, retryAfter, ...rest }) => normalise(twin, JSON.stringify({ ...rest, retryAfter: clocked.length ? retryAfter !== null : retryAfter })));
  };
  const [rowsA, rowsB] = [await rows(a), await rows(b)];
  expect(rowsA.length).toBe(a.seen.length);
  expect(rowsA).toEqual(rowsB);
}

const repeat = (n: number, step: Step): Step[] => Array.from({ length: n }, () => step);

describe("replayed reads", () => {
  it("answer and log a repeated read as a fresh read would, before and after a write (hirewire, numbered pages)", async () => {
    const pair = await twins("hirewire");
    const key = (info: RoleInfo) => ({ "x-api-key": info.credentials.api_key });
    const page = { path: "/v1/candidates?page=1&per_page=50" };
    const steps: Step[] = [
      ...repeat(3, page),
      ...repeat(2, { path: "/v1/candidates?page=2&per_page=50" }),
      ...repeat(3, { path: "/v1/candidates/1001" }),
      ...repeat(2, { path: "/v1/candidates/1001?colour=blue" }),
      ...repeat(2, { path: "/v1/candidates/1001", headers: { "x-api-key": "wrong" } }),
      ...repeat(2, { path: "/v1/nowhere" }),
      { method: "POST", path: "/v1/candidates/1001/stage", headers: { "content-type": "application/json" }, body: JSON.stringify({ stage: "offer" }) },
      // The list may lag behind the write for a few requests; replays must not freeze the lag.
      ...repeat(8, page),
      ...repeat(3, { path: "/v1/candidates/1001" }),
    ];
    for (const step of steps) await send(pair, key, step);
    await engineOf(pair[0].world, (e) => expect(e.replays.size).toBeGreaterThan(0));
    await engineOf(pair[1].world, (e) => expect(e.replays.size).toBe(0));
    await compare(pair);
  });

  it("are counted by the rate limit like any request, and one it refuses is refused as a fresh read would be (hirewire, 120 a window)", async () => {
    const pair = await twins("hirewire", true);
    const key = (info: RoleInfo) => ({ "x-api-key": info.credentials.api_key });
    for (const step of repeat(124, { path: "/v1/candidates?page=1&per_page=50" })) await send(pair, key, step);
    await engineOf(pair[0].world, (e) => expect(e.replays.size).toBeGreaterThan(0));
    const statuses = pair[0].seen.map((s) => s.status);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(120)).toEqual([429, 429, 429, 429]);
    expect(pair[0].seen[119].headers).toContainEqual(["x-ratelimit-remaining", "0"]);
    await compare(pair, ["retry-after", "x-ratelimit-reset"]);
  });

  it("wait while an accepted write has yet to land, which a later read lands (sourcewell)", async () => {
    const pair = await twins("sourcewell");
    const key = (info: RoleInfo) => ({ "x-sw-key": info.credentials.api_key, "content-type": "application/json" });
    const count = { path: "/v3/endorsements?lim=1" };
    for (const step of repeat(2, count)) await send(pair, key, step);
    await send(pair, key, { path: "/v3/talent?lim=1" });
    const talent = JSON.parse(pair[0].seen.at(-1)!.text).d[0].id;
    await send(pair, key, { path: "/v3/skills?lim=1" });
    const skill = JSON.parse(pair[0].seen.at(-1)!.text).d[0].id;
    await send(pair, key, { method: "POST", path: "/v3/endorsements", body: JSON.stringify({ tid: talent, sid: skill, lvl: 4, src: "peer", by: "Ines" }) });
    expect(pair[0].seen.at(-1)!.status).toBe(202);
    for (const step of repeat(5, count)) await send(pair, key, step);
    const counts = pair[0].seen.slice(-5).map((s) => JSON.parse(s.text).cnt as number);
    expect(counts[4]).toBe(counts[0] + 1);
    await compare(pair);
  });

  it("leave a cursor page, which names the request that asked, to be served afresh (bullpen)", async () => {
    const pair = await twins("bullpen");
    const token = (info: RoleInfo) => ({ "x-bullpen-app-token": info.credentials.app_token });
    const first = { path: "/api/v2/applications?limit=20" };
    for (const step of repeat(3, first)) await send(pair, token, step);
    const cursor = JSON.parse(pair[0].seen[0].text).next_cursor as string;
    expect(cursor).toBeTruthy();
    // The cursor expires five requests after the page that issued it: a replayed page would hand out a stale one.
    for (const step of repeat(7, { path: `/api/v2/applications?limit=20&cursor=${encodeURIComponent(cursor)}` })) await send(pair, token, step);
    expect(new Set(pair[0].seen.slice(0, 3).map((s) => s.text)).size).toBe(3);
    expect(pair[0].seen.at(-1)!.status).toBe(400);
    await engineOf(pair[0].world, (e) => expect(e.replays.size).toBe(0));
    await compare(pair);
  });

  it("are never made for a vendor whose data calls carry minted tokens (talentforge)", async () => {
    const pair = await twins("talentforge");
    const sessions = new Map<RoleInfo, string>();
    for (const twin of pair) {
      const base = rel(twin.info.baseUrl);
      const mint = await farm(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: twin.info.credentials.client_id, client_secret: twin.info.credentials.client_secret }).toString(),
      });
      const access = ((await mint.json()) as { access_token: string }).access_token;
      const login = await farm(`${base}/rest/login`, { method: "POST", headers: { authorization: `Bearer ${access}` } });
      sessions.set(twin.info, ((await login.json()) as { session_token: string }).session_token);
    }
    for (const step of repeat(4, { path: "/rest/requisitions?limit=7" })) await send(pair, (info) => ({ "x-tf-session": sessions.get(info)! }), step);
    await engineOf(pair[0].world, (e) => expect(e.replays.size).toBe(0));
    for (const twin of pair) expect(twin.seen.every((s) => s.status === 200)).toBe(true);
  });
});
