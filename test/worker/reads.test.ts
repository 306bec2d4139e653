import { describe, expect, it } from "vitest";
import { hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, createWorld } from "./helpers.ts";

describe("payload flags", () => {
  it("returns application stages only with include_stage=true", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const plain = await sl("/svc/applications?count=10");
    expect(plain.body.results.every((a: any) => !("stage" in a))).toBe(true);
    const flagged = await sl("/svc/applications?count=10&include_stage=true");
    expect(flagged.body.results.every((a: any) => typeof a.stage === "string")).toBe(true);
  });
});

describe("incremental filters on the vendor clock", () => {
  it("staffline modified_since is strict (>) in epoch ms", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const all = [...(await sl("/svc/candidates?count=100")).body.results, ...(await sl("/svc/candidates?count=100&start=100")).body.results];
    expect(all).toHaveLength(120);
    const pivot = [...all].sort((a: any, b: any) => a.mod_ts - b.mod_ts)[50].mod_ts;
    const after = (await sl(`/svc/candidates?count=100&modified_since=${pivot}`)).body.results;
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((c: any) => c.mod_ts > pivot)).toBe(true);
    expect(after.length).toBe(all.filter((c: any) => c.mod_ts > pivot).length);
  });

  it("talentforge modified_since is inclusive (>=) in ISO 8601", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const all = (await tf("/rest/requisitions?limit=100")).body.data;
    const instant = (r: any) => Date.parse(r.updated_at);
    const pivot = [...all].sort((a: any, b: any) => instant(a) - instant(b))[10].updated_at;
    const since = (await tf(`/rest/requisitions?limit=100&modified_since=${encodeURIComponent(pivot)}`)).body.data;
    expect(since.some((r: any) => r.updated_at === pivot)).toBe(true);
    expect(since.length).toBe(all.filter((r: any) => instant(r) >= Date.parse(pivot)).length);
  });

  it("rejects a watermark in the wrong format with a 400 naming the parameter", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const res = await hirewireClient(w.vendors.ats)("/v1/candidates?since=2025-06-01T00:00:00Z");
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/since must be a timestamp: integer seconds since the Unix epoch/);
  });

  it("finds exactly the records a checkpoint changed", async () => {
    const w = await createWorld({ ats: "staffline" }, 4, 0);
    const sl = stafflineClient(w.vendors.ats);
    const serverNow = Number((await sl("/svc/candidates?count=1")).headers.get("x-sl-server-time"));
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    const changed = (await sl(`/svc/candidates?count=100&modified_since=${serverNow - 10_000}`)).body.results;
    expect(changed.length).toBe(6 + 8);
  });
});

describe("timestamp formats", () => {
  it("talentforge stamps each record in its own UTC offset, stable across reads", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const rows = (await tf("/rest/candidates?limit=60")).body.data;
    const offsets = new Set(rows.map((r: any) => /([+-]\d{2}:\d{2})$/.exec(r.updated_at)![1]));
    expect(offsets.size).toBeGreaterThan(3);
    const again = (await tf(`/rest/candidates/${rows[0].id}`)).body;
    expect(again.updated_at).toBe(rows[0].updated_at);
  });

  it("hirewire uses integer epoch seconds", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const rows = (await hirewireClient(w.vendors.ats)("/v1/candidates")).body.data;
    expect(rows.every((r: any) => Number.isInteger(r.updated_at) && r.updated_at > 1.7e9 && r.updated_at < 1.8e9)).toBe(true);
  });
});

describe("deletes", () => {
  it("staffline: deleted records leave the list and appear in the tombstone feed", async () => {
    const w = await createWorld({ ats: "staffline" }, 2, 1);
    const sl = stafflineClient(w.vendors.ats);
    const tombs = (await sl("/svc/tombstones?count=100")).body.results;
    const deletedCandidates = tombs.filter((t: any) => t.object_type === "candidate");
    expect(deletedCandidates).toHaveLength(3);
    expect(tombs.filter((t: any) => t.object_type === "application")).toHaveLength(2);
    const listed = new Set<string>();
    for (let start = 0; ; start += 100) {
      const page = (await sl(`/svc/candidates?start=${start}&count=100`)).body;
      page.results.forEach((c: any) => listed.add(c.id));
      if (start + 100 >= page.total_count) break;
    }
    for (const t of deletedCandidates) {
      expect(listed.has(t.id)).toBe(false);
      expect((await sl(`/svc/candidates/${t.id}`)).status).toBe(404);
      expect(typeof t.deleted_ts).toBe("number");
    }
  });

  it("talentforge: deleted records stay listed with is_deleted=true", async () => {
    const w = await createWorld({ ats: "talentforge" }, 2, 1);
    const tf = await talentforgeClient(w.vendors.ats);
    let flagged = 0;
    let cursor: string | null = null;
    do {
      const page: any = await tf(`/rest/candidates?limit=100${cursor ? `&cursor=${cursor}` : ""}`);
      flagged += page.body.data.filter((c: any) => c.is_deleted === true).length;
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(flagged).toBe(3);
  });

  it("hirewire: deleted records vanish from lists and reads", async () => {
    const before = await createWorld({ ats: "hirewire" }, 2, 0);
    const after = await createWorld({ ats: "hirewire" }, 2, 1);
    const totalBefore = (await hirewireClient(before.vendors.ats)("/v1/candidates")).body.total;
    const totalAfter = (await hirewireClient(after.vendors.ats)("/v1/candidates")).body.total;
    expect(totalAfter).toBe(totalBefore + 10 - 4);
  });
});
