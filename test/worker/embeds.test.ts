import { describe, expect, it } from "vitest";
import { got, type Got } from "./clients.ts";
import { createWorld, farm, type RoleInfo, rel } from "./helpers.ts";

function sourcewellClient(info: RoleInfo) {
  return async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Got> =>
    got(await farm(rel(info.baseUrl) + path, { ...init, headers: { "x-sw-key": info.credentials.api_key, "content-type": "application/json", ...init.headers } }));
}

/** Rosterly: the manager app's login, its session cookie on reads. */
async function rosterlyClient(info: RoleInfo) {
  const base = rel(info.baseUrl);
  const login = await farm(`${base}/api/v3/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: info.credentials.username, password: info.credentials.password }),
  });
  expect(login.status).toBe(200);
  const cookie = /rly_sid=([^;,\s]+)/.exec(login.headers.get("set-cookie") ?? "")![1];
  return async (path: string): Promise<Got> => got(await farm(base + path, { headers: { cookie: `rly_sid=${cookie}` } }));
}

interface Pool {
  id: string;
  mb: { id: string; pid: string }[];
  mb_truncated: boolean;
}

describe("embedded arrays cut at N, with a flag and a subresource for the rest (sourcewell pools embed 5 members)", () => {
  it("embeds exactly 5 members and mb_truncated: true when a pool has more, every member and false when it has fewer; the members list has them all", async () => {
    const w = await createWorld({ ats: "sourcewell" });
    const sw = sourcewellClient(w.vendors.ats);
    const pools = (await sw("/v3/pools?lim=100")).body.d as Pool[];
    expect(pools.length).toBeGreaterThan(5);
    let big = 0;
    let small = 0;
    for (const pool of pools) {
      const members = (await sw(`/v3/pools/${pool.id}/members?lim=100`)).body.d as { id: string }[];
      expect(
        pool.mb.map((m) => m.id),
        `pool ${pool.id}`,
      ).toEqual(members.slice(0, 5).map((m) => m.id));
      expect(pool.mb_truncated).toBe(members.length > 5);
      expect(pool.mb.every((m) => m.pid === pool.id)).toBe(true);
      if (members.length > 5) big++;
      else small++;
      const one = (await sw(`/v3/pools/${pool.id}`)).body as Pool;
      expect(one.mb).toEqual(pool.mb);
      expect(one.mb_truncated).toBe(pool.mb_truncated);
    }
    expect(big).toBeGreaterThan(0);
    expect(small).toBeGreaterThan(0);
  });

  it("follows writes: a member added to a pool of five turns the flag on, in lists and single reads, and changes the pool's ETag", async () => {
    const w = await createWorld({ ats: "sourcewell" });
    const sw = sourcewellClient(w.vendors.ats);
    const pools = (await sw("/v3/pools?lim=100")).body.d as Pool[];
    const counts = await Promise.all(pools.map(async (p) => ({ p, n: (await sw(`/v3/pools/${p.id}/members?lim=1`)).body.cnt as number })));
    const target = counts.find((c) => c.n < 5 && c.n > 0) ?? counts.find((c) => c.n === 5)!;
    const talent = (await sw("/v3/talent?lim=1")).body.d[0].id as string;
    const etag = (await sw(`/v3/pools/${target.p.id}`)).headers.get("etag")!;
    expect((await sw(`/v3/pools/${target.p.id}`, { headers: { "if-none-match": etag } })).status).toBe(304);
    for (let n = target.n; n <= 5; n++) expect((await sw(`/v3/pools/${target.p.id}/members`, { method: "POST", body: JSON.stringify({ tid: talent, nt: `probe ${n}` }) })).status).toBe(201);
    // The pool's own version did not move, but what it embeds did: no 304 for the old ETag.
    const revalidated = await sw(`/v3/pools/${target.p.id}`, { headers: { "if-none-match": etag } });
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers.get("etag")).not.toBe(etag);
    const one = revalidated.body as Pool;
    expect(one.mb).toHaveLength(5);
    expect(one.mb_truncated).toBe(true);
    const listed = ((await sw("/v3/pools?lim=100")).body.d as Pool[]).find((p) => p.id === target.p.id)!;
    expect(listed.mb_truncated).toBe(true);
    expect((await sw(`/v3/pools/${target.p.id}/members?lim=1`)).body.cnt).toBe(6);
  });

  it("documents the cut: true docs name the limit and the flag, stale docs call the array complete", async () => {
    const truth = await createWorld({ ats: "sourcewell" }, 1, 0, "true");
    const page = await (await farm(`${rel(truth.vendors.ats.docsUrl)}resource-pools.md`)).text();
    expect(page).toMatch(/`mb` \| array of member \| The first 5 members of the pool/);
    expect(page).toMatch(/`mb_truncated` \| boolean \|/);
    const api = (await (await farm(`${rel(truth.vendors.ats.docsUrl)}openapi.json`)).json()) as any;
    expect(api.components.schemas.pool.properties.mb).toMatchObject({ type: "array", maxItems: 5, items: { $ref: "#/components/schemas/member" } });
    expect(api.components.schemas.pool.properties.mb_truncated.type).toBe("boolean");

    const stale = await createWorld({ ats: "sourcewell" }, 1, 0, "stale");
    const staleApi = (await (await farm(`${rel(stale.vendors.ats.docsUrl)}openapi.json`)).json()) as any;
    expect(staleApi.components.schemas.pool.properties.mb.description).toMatch(/^Every member of the pool/);
    expect(staleApi.components.schemas.pool.properties.mb_truncated).toBeUndefined();
  });
});

describe("embedded arrays (rosterly workers embed their first 3 notes)", () => {
  it("cuts recent_notes at 3 with notes_truncated, and the notes list has every note", async () => {
    const w = await createWorld({ ats: "rosterly" });
    const rl = await rosterlyClient(w.vendors.ats);
    const workers = (await rl("/api/v3/workers?limit=40")).body.items as { id: string; recent_notes: { id: string }[]; notes_truncated: boolean }[];
    const seen = { over: 0, under: 0 };
    for (const worker of workers) {
      const notes = (await rl(`/api/v3/workers/${worker.id}/notes?limit=200`)).body.items as { id: string }[];
      expect(worker.recent_notes.map((n) => n.id)).toEqual(notes.slice(0, 3).map((n) => n.id));
      expect(worker.notes_truncated).toBe(notes.length > 3);
      seen[notes.length > 3 ? "over" : "under"]++;
    }
    expect(seen.over).toBeGreaterThan(0);
    expect(seen.under).toBeGreaterThan(0);
  });
});
