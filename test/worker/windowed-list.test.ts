import { describe, expect, it } from "vitest";
import globalhire from "../../declarations/vendors/globalhire.ts";
import { admin, createWorld, farm, rel } from "./helpers.ts";

const DAY = 86_400_000;
const activity = globalhire.resources.find((r) => r.name === "activity")!;
const win = activity.window as { from: string; to: string; field: string; maxSpanDays: number; reportField: string };

interface Page {
  status: number;
  body: { items: Record<string, unknown>[]; total_count: number; window: { from: string; to: string }; error?: { code: string; parameter?: string } };
}

/** One request to the activity list of a world, with the query given. */
function activityClient(w: Awaited<ReturnType<typeof createWorld>>) {
  const base = rel(w.vendors.ats.baseUrl);
  const key = w.vendors.ats.credentials.api_key;
  return async (query: Record<string, string>): Promise<Page> => {
    const res = await farm(`${base}${activity.list}?${new URLSearchParams(query)}`, { headers: { "x-gh-api-key": key } });
    return { status: res.status, body: (await res.json()) as Page["body"] };
  };
}

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const at = (v: unknown) => Date.parse(String(v));

describe("a windowed list (globalhire /v2/activity)", () => {
  it("refuses a request without a window, or with an unreadable or empty one, with a 400 naming the parameter", async () => {
    const w = await createWorld({ ats: "globalhire" });
    const list = activityClient(w);
    const none = await list({});
    expect(none.status).toBe(400);
    expect(none.body.error?.parameter).toBe(win.from);
    const noEnd = await list({ [win.from]: "2024-07-01T00:00:00Z" });
    expect(noEnd.status).toBe(400);
    expect(noEnd.body.error?.parameter).toBe(win.to);
    const unreadable = await list({ [win.from]: "yesterday", [win.to]: "2024-07-01T00:00:00Z" });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.error?.parameter).toBe(win.from);
    const empty = await list({ [win.from]: "2024-07-01T00:00:00Z", [win.to]: "2024-07-01T00:00:00Z" });
    expect(empty.status).toBe(400);
    expect(empty.body.error?.parameter).toBe(win.to);
  });

  it("cuts a window longer than the cap to the cap, says so in the envelope, and serves only that window's records", async () => {
    const w = await createWorld({ ats: "globalhire" });
    const list = activityClient(w);
    const truth = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/records`)).body.entities.activity as { id: string; record: Record<string, unknown> }[];
    const fromMs = Date.parse("2024-06-01T00:00:00Z");
    const page = await list({ [win.from]: iso(fromMs), [win.to]: iso(fromMs + 30 * DAY), limit: "200" });
    expect(page.status).toBe(200);
    const served = page.body[win.reportField as "window"];
    expect(at(served.from)).toBe(fromMs);
    expect(at(served.to)).toBe(fromMs + win.maxSpanDays * DAY);
    const inCap = truth.filter((r) => at(r.record[win.field]) >= fromMs && at(r.record[win.field]) < fromMs + win.maxSpanDays * DAY).map((r) => r.id);
    expect(inCap.length).toBeGreaterThan(0);
    expect(page.body.items.map((r) => r.id).sort()).toEqual([...inCap].sort());
    expect(page.body.total_count).toBe(inCap.length);
    // Served in the order of the window's field.
    const times = page.body.items.map((r) => at(r[win.field]));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    // Within the cap, the window asked is the window served.
    const short = await list({ [win.from]: iso(fromMs), [win.to]: iso(fromMs + DAY) });
    expect(at(short.body.window.to)).toBe(fromMs + DAY);
    expect(short.body.items.every((r) => at(r[win.field]) < fromMs + DAY)).toBe(true);
  });

  it("never reaches past the vendor's now, so walking windows from the first day to the present reads every record once", async () => {
    const w = await createWorld({ ats: "globalhire" }, 3, 2);
    const list = activityClient(w);
    const truth = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/records`)).body.entities.activity as { id: string }[];
    let fromMs = Date.parse(globalhire.clock.epoch) - 400 * DAY;
    const ids: string[] = [];
    let requests = 0;
    for (;;) {
      const askedTo = fromMs + win.maxSpanDays * DAY;
      let offset = 0;
      let served: { to: string } | null = null;
      for (;;) {
        const page = await list({ [win.from]: iso(fromMs), [win.to]: iso(askedTo), offset: String(offset), limit: "200" });
        requests += 1;
        expect(page.status).toBe(200);
        ids.push(...page.body.items.map((r) => String(r.id)));
        served = page.body.window;
        offset += page.body.items.length;
        if (offset >= page.body.total_count) break;
      }
      const toMs = at(served!.to);
      if (toMs < askedTo) break;
      fromMs = toMs;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(truth.map((r) => r.id).sort());
    // Every request was logged exactly once.
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.filter((r: { path: string }) => r.path === activity.list).length).toBe(requests);
  });

  it("tags list requests with the documented-cap lie when the docs are stale", async () => {
    const w = await createWorld({ ats: "globalhire" }, 1, 0, "stale");
    const list = activityClient(w);
    await list({ [win.from]: "2024-06-01T00:00:00Z", [win.to]: "2024-07-01T00:00:00Z" });
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    const lie = globalhire.lies.find((l) => l.kind === "window-span")!;
    expect(log.body.records.at(-1).lies).toContain(lie.id);
  });
});
