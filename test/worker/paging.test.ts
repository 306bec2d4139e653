import { describe, expect, it } from "vitest";
import { got, hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, createWorld, farm, rel } from "./helpers.ts";

describe("offset paging (staffline start/count)", () => {
  it("walks every record once, reports a total, and clamps oversized pages", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const big = await sl("/svc/candidates?count=500");
    expect(big.status).toBe(200);
    expect(big.body.results).toHaveLength(100);
    const total: number = big.body.total_count;
    const ids: string[] = [];
    for (let start = 0; start < total; start += 40) {
      const page = await sl(`/svc/candidates?start=${start}&count=40`);
      ids.push(...page.body.results.map((r: any) => r.id));
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
    const past = await sl(`/svc/candidates?start=${total}&count=40`);
    expect(past.body.results).toEqual([]);
  });

  it("rejects a non-numeric offset with 400 naming the parameter", async () => {
    const w = await createWorld({ ats: "staffline" });
    const res = await stafflineClient(w.vendors.ats)("/svc/candidates?start=abc");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: "invalid_parameter", parameter: "start" });
  });
});

describe("hypermedia _links (staffline jobs)", () => {
  it("crawls by following _links.next.href", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const ids: string[] = [];
    let path: string | null = "/svc/jobs";
    while (path) {
      const page: any = await sl(path);
      expect(page.status).toBe(200);
      ids.push(...page.body.results.map((j: any) => j.id));
      path = page.body._links.next ? page.body._links.next.href.slice(w.vendors.ats.baseUrl.length) : null;
    }
    expect(ids).toHaveLength(25);
    expect(new Set(ids).size).toBe(25);
  });
});

describe("numbered pages from 1 with RFC 8288 Link headers (hirewire)", () => {
  it("follows rel=next to the end without loss", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const first = await hw("/v1/candidates?per_page=50");
    const total: number = first.body.total;
    const ids: number[] = first.body.data.map((r: any) => r.id);
    let link = first.headers.get("link");
    while (link) {
      const next = /<([^>]+)>; rel="next"/.exec(link)![1];
      const page = await hw(next.slice(w.vendors.ats.baseUrl.length));
      ids.push(...page.body.data.map((r: any) => r.id));
      link = page.headers.get("link");
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it("refuses a page size over the maximum instead of clamping", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const res = await hirewireClient(w.vendors.ats)("/v1/candidates?per_page=51");
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/per_page must be at most 50/);
  });

  it("treats page 1 as the first page and refuses page 0", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const unnamed = await hw("/v1/candidates?per_page=5");
    const one = await hw("/v1/candidates?per_page=5&page=1");
    expect(one.body.data).toEqual(unnamed.body.data);
    const zero = await hw("/v1/candidates?per_page=5&page=0");
    expect(zero.status).toBe(400);
    expect(zero.body.error).toBe("invalid_parameter");
  });
});

describe("opaque cursors (talentforge)", () => {
  it("crawls a list through next_cursor and refuses a forged cursor", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await tf(`/rest/requisitions?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      ids.push(...page.body.data.map((r: any) => r.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const forged = await tf(`/rest/requisitions?cursor=${btoa("10.1.abc")}`);
    expect(forged.status).toBe(400);
    expect(forged.body.error.code).toBe("invalid_parameter");
  });

  it("caps a subresource's page size at its own maximum", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const candidates = (await tf("/rest/candidates?limit=100")).body.data;
    let busiest = { id: "", notes: 0 };
    for (const c of candidates.slice(0, 20)) {
      let n = 0;
      let cursor: string | null = null;
      do {
        const page: any = await tf(`/rest/candidates/${c.id}/notes?limit=50${cursor ? `&cursor=${cursor}` : ""}`);
        expect(page.body.data.length).toBeLessThanOrEqual(5);
        n += page.body.data.length;
        cursor = page.body.next_cursor;
      } while (cursor);
      if (n > busiest.notes) busiest = { id: c.id, notes: n };
    }
    expect(busiest.notes).toBeGreaterThan(5);
  });

  it("answers 404 for the notes of a candidate that does not exist", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const res = await tf("/rest/candidates/cand_99999/notes");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });
});

describe("unknown routes", () => {
  it("get the vendor's own 404 shape, 405 for a wrong method, and are logged", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const missing = await hw("/v2/nothing");
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: "not_found" });
    const wrongMethod = await hw("/v1/candidates", { method: "DELETE" });
    expect(wrongMethod.status).toBe(405);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.map((r: any) => r.status)).toEqual([404, 405]);
  });

  it("keeps /_wb/ off the vendor surface and answers /_health", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const base = rel(w.vendors.ats.baseUrl);
    expect((await farm(`${base}/_wb/declaration`)).status).toBe(404);
    expect((await farm(`${base}/_health`)).status).toBe(200);
    expect((await got(await farm("/w/w_0000000000000000/ats/v1/candidates"))).status).toBe(404);
  });
});
