import { describe, expect, it } from "vitest";
import { hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, createWorld } from "./helpers.ts";

/** Fetches the same sequence of pages from a world's three vendors. */
async function pages(seed: number): Promise<string[]> {
  const w = await createWorld({ a: "staffline", b: "talentforge", c: "hirewire" }, seed);
  const sl = stafflineClient(w.vendors.a);
  const tf = await talentforgeClient(w.vendors.b);
  const hw = hirewireClient(w.vendors.c);
  const out = [
    (await sl("/svc/candidates?count=100")).text,
    (await sl("/svc/applications?count=100&include_stage=true")).text,
    (await hw("/v1/candidates?per_page=50&page=2")).text,
    (await hw("/v1/audit-events")).text,
  ];
  let cursor: string | null = null;
  do {
    const page: any = await tf(`/rest/candidates?limit=40${cursor ? `&cursor=${cursor}` : ""}`);
    out.push(page.text);
    cursor = page.body.next_cursor;
  } while (cursor);
  out.push(w.vendors.a.stateHash, w.vendors.b.stateHash, w.vendors.c.stateHash);
  return out;
}

describe("determinism", () => {
  it("gives byte-identical pages and state hashes for the same seed", async () => {
    const [x, y] = [await pages(42), await pages(42)];
    expect(x.length).toBeGreaterThan(8);
    expect(y).toEqual(x);
  });

  it("gives different data for a different seed", async () => {
    const [x, y] = [await pages(42), await pages(43)];
    expect(y[0]).not.toEqual(x[0]);
    expect(y.at(-1)).not.toEqual(x.at(-1));
  });
});

describe("recreate and epochs", () => {
  it("discards writes, resets to the checkpoint's state hash, and opens a new epoch keeping old logs", async () => {
    const w = await createWorld({ ats: "hirewire" }, 11);
    const hw = hirewireClient(w.vendors.ats);
    const created = await hw("/v1/candidates", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Ada", surname: "Obi", email: "ada@example.com" }) });
    expect(created.status).toBe(201);
    const dirty = await admin("GET", `/v1/worlds/${w.world}`);
    expect(dirty.body.roles.ats.stateHash).not.toBe(w.vendors.ats.stateHash);

    const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0 });
    expect(re.status).toBe(200);
    expect(re.body).toMatchObject({ epoch: 1, checkpoint: 0, stateHash: w.vendors.ats.stateHash, requests: 0 });
    expect((await hw(`/v1/candidates/${created.body.id}`)).status).toBe(404);

    const epoch0 = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=0`);
    const epoch1 = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`);
    expect(epoch0.body.records.map((r: any) => r.method)).toEqual(["POST"]);
    expect(epoch1.body.records.map((r: any) => r.status)).toEqual([404]);
    expect(epoch1.body.records[0].epoch).toBe(1);
  });

  it("recreates a checkpoint to the same state as a world created there", async () => {
    const moved = await createWorld({ ats: "staffline" }, 8, 0);
    const re = await admin("POST", `/v1/worlds/${moved.world}/roles/ats/recreate`, { checkpoint: 2 });
    const direct = await createWorld({ ats: "staffline" }, 8, 2);
    expect(re.body.stateHash).toBe(direct.vendors.ats.stateHash);
    expect(re.body.stateHash).not.toBe(moved.vendors.ats.stateHash);
  });

  it("rejects a bad epoch query with 400", async () => {
    const w = await createWorld({ ats: "hirewire" });
    expect((await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=abc`)).status).toBe(400);
  });
});

describe("request log", () => {
  it("holds exactly one row per request, in order, with the request-log fields", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const paths = Array.from({ length: 25 }, (_, i) => (i % 3 === 0 ? `/v1/candidates/${1001 + i}` : `/v1/candidates?page=${i}&per_page=5`));
    for (const p of paths) await hw(p);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    const rows = log.body.records;
    expect(rows).toHaveLength(25);
    expect(rows.map((r: any) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(rows.map((r: any) => r.path + (Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ""))).toEqual(paths);
    for (const key of ["seq", "epoch", "ts", "method", "path", "query", "headers", "body", "status", "authOutcome", "rateLimited", "retryAfter", "idempotencyKey", "faults", "lies"]) {
      expect(rows[0]).toHaveProperty(key);
    }
    expect(rows.map((r: any) => r.ts)).toEqual([...rows.map((r: any) => r.ts)].sort((a: number, b: number) => a - b));
  });
});

describe("concurrent requests", () => {
  it("get distinct sequence numbers and are all logged", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const writes = Array.from({ length: 12 }, (_, i) =>
      hw("/v1/candidates", {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": `c${i}` },
        body: JSON.stringify({ name: `N${i}`, surname: "S", email: `n${i}@example.com` }),
      }),
    );
    const reads = Array.from({ length: 12 }, (_, i) => hw(`/v1/candidates/${1001 + i}`));
    const results = await Promise.all([...writes, ...reads]);
    expect(results.every((r) => r.status < 300)).toBe(true);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    const seqs = log.body.records.map((r: any) => r.seq);
    expect(seqs).toHaveLength(24);
    expect(new Set(seqs).size).toBe(24);
    expect(log.body.records.filter((r: any) => r.method === "POST")).toHaveLength(12);
  });
});
