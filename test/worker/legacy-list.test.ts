import { describe, expect, it } from "vitest";
import bullpen from "../../declarations/vendors/bullpen.ts";
import { createWorld, farm, rel } from "./helpers.ts";

/** Every id a list serves, following its cursors to the end. */
async function readAll(base: string, token: string, path: string, limit = 70): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await farm(`${base}${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { headers: { "x-bullpen-app-token": token } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id: string }[]; next_cursor: string | null };
    ids.push(...body.items.map((c) => c.id));
    cursor = body.next_cursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { ids, pages };
}

describe("a legacy list version (bullpen /api/v1/candidates)", () => {
  it("pages like the current list but stops silently after its cap, with no next cursor past it", async () => {
    const w = await createWorld({ ats: "bullpen" });
    const base = rel(w.vendors.ats.baseUrl);
    const token = w.vendors.ats.credentials.app_token;
    const cap = bullpen.resources.find((r) => r.name === "candidate")!.legacyList!.truncateAt!;
    const current = await readAll(base, token, "/api/v2/candidates");
    const legacy = await readAll(base, token, "/api/v1/candidates");
    expect(current.ids.length).toBeGreaterThan(cap);
    expect(legacy.ids).toEqual(current.ids.slice(0, cap));
    expect(legacy.pages).toBe(Math.ceil(cap / 70));
  });
});

describe("a current list with a known defect (bullpen /api/v2/applications)", () => {
  it("skips the record at every page boundary, while the complete v1 list serves them all", async () => {
    const w = await createWorld({ ats: "bullpen" });
    const base = rel(w.vendors.ats.baseUrl);
    const token = w.vendors.ats.credentials.app_token;
    const v1 = (await readAll(base, token, "/api/v1/applications", 50)).ids;
    const v2 = (await readAll(base, token, "/api/v2/applications", 50)).ids;
    expect(v1.length).toBe(bullpen.resources.find((r) => r.name === "application")!.count);
    const missing = v1.filter((id) => !v2.includes(id));
    expect(missing.length).toBe(Math.floor((v1.length - 1) / 51));
    // Each missing record is the one right after a served page of 50.
    for (const id of missing) expect((v1.indexOf(id) + 1) % 51).toBe(0);
    expect(new Set(v2).size).toBe(v2.length);
  });
});
