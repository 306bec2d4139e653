import { describe, expect, it } from "vitest";
import { hirewireClient } from "./clients.ts";
import { farm, createWorld, rel } from "./helpers.ts";

/** A single read's JSON is cached per record version and view; these pin what a client sees. */
describe("a single read served from cached JSON", () => {
  it("repeats byte for byte, and after a write answers the new version under a new tag", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const first = await hw("/v1/candidates/1001");
    const again = await hw("/v1/candidates/1001");
    expect(first.status).toBe(200);
    expect(again.text).toBe(first.text);
    const tag = first.headers.get("etag")!;
    expect(again.headers.get("etag")).toBe(tag);
    expect((await hw("/v1/candidates/1001", { headers: { "if-none-match": tag } })).status).toBe(304);

    const stage = first.body.stage === "offer" ? "hired" : "offer";
    const moved = await hw("/v1/candidates/1001/stage", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ stage }) });
    expect(moved.status).toBe(200);
    const after = await hw("/v1/candidates/1001");
    expect(after.body).toEqual({ ...first.body, stage, updated_at: after.body.updated_at });
    expect(after.headers.get("etag")).not.toBe(tag);
    expect((await hw("/v1/candidates/1001", { headers: { "if-none-match": tag } })).status).toBe(200);
    expect((await hw("/v1/candidates/1001", { headers: { "if-none-match": after.headers.get("etag")! } })).status).toBe(304);
  });

  it("serves a field only to the query that asks for it, whichever view was read first", async () => {
    const w = await createWorld({ ats: "crewcall" });
    const cc = async (path: string) => {
      const res = await farm(rel(w.vendors.ats.baseUrl) + path, { headers: { authorization: `Token ${w.vendors.ats.credentials.api_key}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    };
    const [id] = ((await cc("/partner/v1/assignments")).records as { id: number }[]).map((r) => r.id);
    const path = `/partner/v1/assignments/${id}`;
    const plain = await cc(path);
    const expanded = await cc(`${path}?expand=timesheet`);
    expect(plain).not.toHaveProperty("minutes_worked");
    expect(expanded).toHaveProperty("minutes_worked");
    expect(await cc(path)).toEqual(plain);
    expect(await cc(`${path}?expand=timesheet`)).toEqual(expanded);
  });
});

describe("a list page built from cached items", () => {
  it("repeats byte for byte while its records stand, and shows a write once the list shows it", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const page = () => hw("/v1/candidates?page=1&per_page=50");
    const rowsOf = (res: { body: unknown }) => Object.values(res.body as Record<string, unknown>).find(Array.isArray) as { id: string | number; stage: string }[];
    const first = await page();
    expect(first.status).toBe(200);
    expect((await page()).text).toBe(first.text);

    const target = rowsOf(first)[3];
    const stage = target.stage === "offer" ? "hired" : "offer";
    const moved = await hw(`/v1/candidates/${target.id}/stage`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ stage }) });
    expect(moved.status).toBe(200);
    // The list may show the old stage for a few requests; once it shows the new one, it keeps showing it.
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) seen.push(rowsOf(await page()).find((r) => r.id === target.id)!.stage);
    expect(seen.at(-1)).toBe(stage);
    expect(seen.slice(seen.indexOf(stage)).every((s) => s === stage)).toBe(true);
    const settled = await page();
    expect(rowsOf(settled).map((r) => r.id)).toEqual(rowsOf(first).map((r) => r.id));
    expect((await page()).text).toBe(settled.text);
  });

  it("keeps `$&` and `$'` in a record's text verbatim", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const name = "A$&B $' C $` D $$";
    const made = await hw("/v1/candidates", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, surname: "Dollar", email: "d@example.com" }) });
    expect(made.status).toBe(201);
    // Lists show a new candidate a few requests after it was created.
    for (let i = 0; i < 6; i++) await hw("/v1/candidates/1001");
    const found: unknown[] = [];
    for (let page = 1; page <= 40 && !found.length; page++) {
      const res = await hw(`/v1/candidates?page=${page}&per_page=50`);
      expect(res.status).toBe(200);
      expect(typeof res.body).toBe("object");
      const rows = Object.values(res.body as Record<string, unknown>).find(Array.isArray) as { surname?: string; name?: string }[];
      if (!rows.length) break;
      found.push(...rows.filter((r) => r.surname === "Dollar"));
    }
    expect(found).toEqual([expect.objectContaining({ name, surname: "Dollar" })]);
  });
});
