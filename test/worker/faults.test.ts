import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { got, hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, advanceClock, clockOffset, createWorld, farm, pendingTimeline, rel } from "./helpers.ts";

describe("error after commit (hirewire moveStage, armed at recreate)", () => {
  it("commits the third move, answers 500 anyway, logs the fault, and replays the commit to a retry with the same key", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["hw-stage-500-after-commit"] });
    expect(re.status).toBe(200);
    const hw = hirewireClient(w.vendors.ats);
    const move = (id: number, key: string) =>
      hw(`/v1/candidates/${id}/stage`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": key }, body: JSON.stringify({ stage: "rejected" }) });
    expect((await move(1001, "a")).status).toBe(200);
    expect((await move(1002, "b")).status).toBe(200);
    const third = await move(1003, "c");
    expect(third.status).toBe(500);
    expect((await hw("/v1/candidates/1003")).body.stage).toBe("rejected");
    const retry = await move(1003, "c");
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect((await move(1004, "d")).status).toBe(200);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`);
    expect(log.body.records.map((r: any) => r.faults)).toEqual([[], [], ["hw-stage-500-after-commit"], [], [], []]);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.body.roles.ats.firedFaults).toEqual(["hw-stage-500-after-commit"]);
  });

  it("fires nothing when not armed, and refuses unknown fault ids", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    for (const id of [1001, 1002, 1003])
      expect((await hw(`/v1/candidates/${id}/stage`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ stage: "offer" }) })).status).toBe(200);
    const bad = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["meteor-strike"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/declares no fault "meteor-strike"/);
  });
});

async function armed(vendor: string, faults: string[], checkpoint = 0) {
  const w = await createWorld({ ats: vendor });
  const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint, faults });
  expect(re.status).toBe(200);
  return w;
}

async function epochLog(world: string) {
  return (await admin("GET", `/v1/worlds/${world}/roles/ats/requests?epoch=1`)).body.records as any[];
}

describe("read-side faults fire at their trigger and only there", () => {
  it("error-on-page: the second page fails twice with 502, then serves; other pages never fail", async () => {
    const w = await armed("hirewire", ["hw-candidates-502-page-2"]);
    const hw = hirewireClient(w.vendors.ats);
    const statuses = [];
    for (const page of [1, 2, 2, 2, 3, 1]) statuses.push((await hw(`/v1/candidates?page=${page}&per_page=20`)).status);
    expect(statuses).toEqual([200, 502, 502, 200, 200, 200]);
    expect((await epochLog(w.world)).map((r) => r.faults)).toEqual([[], ["hw-candidates-502-page-2"], ["hw-candidates-502-page-2"], [], [], []]);
  });

  it("rate-limit-window: after 3 requests a 429 window with an HTTP-date Retry-After opens, then closes", async () => {
    const w = await armed("hirewire", ["hw-burst-429"]);
    const hw = hirewireClient(w.vendors.ats);
    for (let i = 0; i < 3; i++) expect((await hw("/v1/audit-events")).status).toBe(200);
    const limited = await hw("/v1/audit-events");
    expect(limited.status).toBe(429);
    expect(Number.isNaN(Date.parse(limited.headers.get("retry-after")!))).toBe(false);
    const row = (await epochLog(w.world)).at(-1);
    expect(row).toMatchObject({ rateLimited: true, faults: ["hw-burst-429"] });
    // Open again once Retry-After has passed on the world's clock.
    await advanceClock(w.world, "ats", row.retryAfter * 1000);
    expect((await hw("/v1/audit-events")).status).toBe(200);
  });

  it("rate-limit-window: a write the window refuses still has its idempotency key in the log", async () => {
    const w = await armed("hirewire", ["hw-burst-429"]);
    const hw = hirewireClient(w.vendors.ats);
    for (let i = 0; i < 3; i++) expect((await hw("/v1/audit-events")).status).toBe(200);
    const refused = await hw("/v1/candidates/1001/stage", {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "move-1001" },
      body: JSON.stringify({ stage: "offer" }),
    });
    expect(refused.status).toBe(429);
    expect((await epochLog(w.world)).at(-1)).toMatchObject({ rateLimited: true, idempotencyKey: "move-1001", faults: ["hw-burst-429"] });
  });

  it("token-revoked: the session stops working with an off-spec 403 after 4 requests; a new session works", async () => {
    const w = await armed("talentforge", ["tf-session-revoked"]);
    const tf = await talentforgeClient(w.vendors.ats);
    expect((await tf("/rest/requisitions")).status).toBe(200);
    expect((await tf("/rest/requisitions")).status).toBe(200);
    const revoked = await tf("/rest/requisitions");
    expect(revoked.status).toBe(403);
    expect(revoked.body.error.code).toBe("token_revoked");
    const fresh = await talentforgeClient(w.vendors.ats);
    expect((await fresh("/rest/requisitions")).status).toBe(200);
    expect((await epochLog(w.world)).filter((r) => r.faults.includes("tf-session-revoked"))).toHaveLength(1);
  });

  it("cursor-invalidated: a cursor issued before the fourth candidates request is refused", async () => {
    const w = await armed("talentforge", ["tf-cursors-reset"]);
    const tf = await talentforgeClient(w.vendors.ats);
    const first = await tf("/rest/candidates?limit=10");
    for (let i = 0; i < 3; i++) await tf("/rest/candidates?limit=1");
    const stale = await tf(`/rest/candidates?limit=10&cursor=${first.body.next_cursor}`);
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe("cursor_expired");
    const fresh = await tf("/rest/candidates?limit=10");
    expect((await tf(`/rest/candidates?limit=10&cursor=${fresh.body.next_cursor}`)).status).toBe(200);
  });

  it("page-drift: after three candidate reads, three records move to the head of the list", async () => {
    const w = await armed("talentforge", ["tf-candidates-drift"]);
    const tf = await talentforgeClient(w.vendors.ats);
    const before = (await tf("/rest/candidates?limit=5")).body.data.map((c: any) => c.id);
    await tf("/rest/candidates?limit=1");
    await tf("/rest/candidates?limit=1");
    const after = (await tf("/rest/candidates?limit=5")).body.data.map((c: any) => c.id);
    expect(after.slice(3)).toEqual(before.slice(0, 2));
    expect(after.slice(0, 3)).not.toContain(before[0]);
  });

  it("lapse-at-trigger: from the first request the oldest unanswered offers' bookings are expired, the rest untouched", async () => {
    const calendar = async (faults: string[]) => {
      const w = await armed("crewcall", faults);
      const cc = async (path: string) => got(await farm(rel(w.vendors.ats.baseUrl) + path, { headers: { authorization: `Token ${w.vendors.ats.credentials.api_key}` } }));
      const page = await cc("/partner/v1/bookings?limit=200");
      expect(page.status).toBe(200);
      return { w, rows: page.body.records as { id: number; status: string; updated_at: string }[] };
    };
    const plain = (await calendar([])).rows;
    const { w, rows } = await calendar(["cc-board-offers-lapsed"]);
    const held = plain.filter((b) => b.status === "held").map((b) => b.id);
    const lapsed = held.slice(0, 10);
    expect(lapsed.length).toBeGreaterThan(0);
    expect(rows.map((b) => b.id)).toEqual(plain.map((b) => b.id));
    for (const [i, b] of rows.entries()) {
      if (lapsed.includes(b.id)) {
        expect(b.status).toBe("expired");
        expect(b.updated_at > plain[i].updated_at).toBe(true);
      } else expect(b).toEqual(plain[i]);
    }
    expect((await epochLog(w.world))[0].faults).toEqual([]);
  });

  it("schema-change: from checkpoint 2 the email field is served as email_address", async () => {
    const early = await armed("talentforge", ["tf-email-renamed"], 1);
    const tf1 = await talentforgeClient(early.vendors.ats);
    expect(Object.keys((await tf1("/rest/candidates/cand_00001")).body)).toContain("email");
    const late = await armed("talentforge", ["tf-email-renamed"], 2);
    const tf2 = await talentforgeClient(late.vendors.ats);
    const rec = (await tf2("/rest/candidates/cand_00001")).body;
    expect(rec).toHaveProperty("email_address");
    expect(rec).not.toHaveProperty("email");
    expect((await tf2("/rest/candidates?limit=2")).body.data[0]).toHaveProperty("email_address");
  });

  it("slow: one response is delayed by 300 ms", async () => {
    const w = await armed("talentforge", ["tf-slow-reads"]);
    const tf = await talentforgeClient(w.vendors.ats);
    // The delay is taken on the world's clock, which the tests' clock passes without waiting.
    const before = await clockOffset(w.world, "ats");
    await tf("/rest/requisitions");
    expect((await clockOffset(w.world, "ats")) - before).toBe(300);
    expect((await epochLog(w.world)).at(-1).faults).toEqual(["tf-slow-reads"]);
  });

  it("maintenance by request count: two 503s with a long Retry-After, then normal service", async () => {
    const w = await armed("staffline", ["sl-maintenance-503"]);
    const sl = stafflineClient(w.vendors.ats);
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await sl("/svc/jobs?count=1")).status);
    expect(statuses.filter((s) => s === 503)).toHaveLength(2);
    expect(statuses.slice(0, 5).every((s) => s === 200 || s === 401)).toBe(true);
  });

  it("payload-too-large: a bulk write over the armed cap gets 413", async () => {
    const w = await armed("staffline", ["sl-bulk-413"]);
    const sl = stafflineClient(w.vendors.ats);
    const notes = Array.from({ length: 11 }, () => ({ candidate_id: "cand_0001", note_text: "x" }));
    const res = await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body: JSON.stringify({ notes }) });
    expect(res.status).toBe(413);
    expect((await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body: JSON.stringify({ notes: notes.slice(0, 10) }) })).status).toBe(207);
  });
});

describe("timed faults on the Durable Object alarm", () => {
  it("opens and closes a maintenance window through scheduled events, each applied once", async () => {
    const w = await armed("talentforge", ["tf-maintenance-window"]);
    const tf = await talentforgeClient(w.vendors.ats);
    expect((await tf("/rest/requisitions")).status).toBe(200);
    const stub = env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const down = await tf("/rest/requisitions");
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("900");
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await tf("/rest/requisitions")).status).toBe(200);
    expect(await pendingTimeline(w.world, "ats")).toBe(0);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.body.roles.ats.firedFaults).toEqual(["tf-maintenance-window"]);
  });

  it("a recreate cancels the pending timeline", async () => {
    const w = await armed("talentforge", ["tf-maintenance-window"]);
    expect(await pendingTimeline(w.world, "ats")).toBe(2);
    await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0 });
    expect(await pendingTimeline(w.world, "ats")).toBe(0);
  });
});

describe("auth sunset and stale reads (talentloop)", () => {
  async function tl(faults: string[]) {
    const w = await armed("talentloop", faults);
    const { farm } = await import("./helpers.ts");
    const base = `/w/${w.world}/ats`;
    const call = (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => farm(`${base}${path}`, { ...init, headers });
    return { w, call, creds: (w.vendors.ats as any).credentials as Record<string, string> };
  }

  it("accepts the legacy token until the sunset, then refuses it with legacy_auth_retired while OAuth keeps working", async () => {
    const { w, call, creds } = await tl(["tl-legacy-token-sunset"]);
    const legacy = { "x-tl-token": creds.legacy_token };
    expect((await call("/v1/jobs", legacy)).status).toBe(200);
    expect((await call("/v1/jobs", legacy)).status).toBe(200);
    expect((await call("/v1/jobs", legacy)).status).toBe(200);
    const retired = await call("/v1/jobs", legacy);
    expect(retired.status).toBe(401);
    expect(JSON.stringify(await retired.json())).toContain("legacy_auth_retired");
    const tok = (await (
      await call(
        "/token",
        { "content-type": "application/x-www-form-urlencoded" },
        { method: "POST", body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.client_id, client_secret: creds.client_secret }).toString() },
      )
    ).json()) as { access_token: string };
    expect((await call("/v1/jobs", { authorization: `Bearer ${tok.access_token}` })).status).toBe(200);
    const log = await epochLog(w.world);
    expect(log.filter((r) => r.faults.includes("tl-legacy-token-sunset")).length).toBeGreaterThanOrEqual(1);
    expect(log[0].headers["x-tl-token"]).toBe("[redacted]");
  });

  it("serves a cached candidate after a write unless the client asks for no-cache", async () => {
    const { call, creds } = await tl(["tl-stale-candidate-reads"]);
    const auth = { "x-tl-token": creds.legacy_token };
    const first = await call("/v1/candidates?limit=1", auth);
    const id = ((await first.json()) as any).data[0].id;
    const fresh = await call(`/v1/candidates/${id}`, auth);
    expect(fresh.headers.get("age")).toBeNull();
    const cached = await call(`/v1/candidates/${id}`, auth);
    expect(cached.headers.get("warning")).toMatch(/^110/);
    expect(cached.headers.get("age")).not.toBeNull();
    const bypass = await call(`/v1/candidates/${id}`, { ...auth, "cache-control": "no-cache" });
    expect(bypass.headers.get("warning")).toBeNull();
    // A conditional request revalidates with the origin: 304 while the ETag is current, never the stale copy.
    const etag = fresh.headers.get("etag")!;
    const conditional = await call(`/v1/candidates/${id}`, { ...auth, "if-none-match": etag });
    expect(conditional.status).toBe(304);
    expect(await conditional.text()).toBe("");
    expect(conditional.headers.get("warning")).toBeNull();
    const other = await call(`/v1/candidates/${id}`, { ...auth, "if-none-match": '"not-the-etag"' });
    expect(other.status).toBe(200);
    expect(other.headers.get("warning")).toBeNull();
  });
});

describe("token aging (vettly: 150 s of token time every 100 requests)", () => {
  it("expires access tokens and ends an absolute refresh chain within one run; a new grant starts a new chain", async () => {
    // Without the vendor's quota: 400-odd requests would otherwise meet its 429s.
    const created = await admin("POST", "/v1/worlds", { vendors: { ats: "vettly" }, seed: 1, rateLimits: false });
    expect(created.status).toBe(201);
    const w = created.body as { world: string; vendors: Record<string, unknown> };
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["vt-token-clock-150s"] })).status).toBe(200);
    const { farm } = await import("./helpers.ts");
    const base = `/w/${w.world}/ats`;
    const creds = (w.vendors.ats as any).credentials as Record<string, string>;
    const form = (body: Record<string, string>) =>
      farm(`${base}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() });
    const grant = async () =>
      (await (await form({ grant_type: "client_credentials", client_id: creds.client_id, client_secret: creds.client_secret })).json()) as { access_token: string; refresh_token: string };
    const read = (token: string) => farm(`${base}/v1/subjects/sbj_000001`, { headers: { authorization: `Bearer ${token}` } });
    let pair = await grant();
    let requests = 1;
    const diedAt: number[] = [];
    const refreshes: number[] = [];
    for (let step = 0; step < 5; step++) {
      let res: Response;
      do {
        res = await read(pair.access_token);
        requests += 1;
      } while (res.status === 200 && requests < 1000);
      expect(JSON.stringify(await res.json())).toContain("token_expired");
      diedAt.push(requests);
      const refreshed = await form({ grant_type: "refresh_token", refresh_token: pair.refresh_token });
      requests += 1;
      refreshes.push(refreshed.status);
      if (refreshed.status !== 200) {
        expect(JSON.stringify(await refreshed.json())).toContain("refresh token has expired");
        break;
      }
      pair = (await refreshed.json()) as typeof pair;
    }
    // Each step of 100 requests kills the two-minute access token; the chain's absolute 600 s end at the fourth refresh.
    expect(diedAt).toEqual([101, 201, 301, 401]);
    expect(refreshes).toEqual([200, 200, 200, 400]);
    const fresh = await grant();
    expect((await read(fresh.access_token)).status).toBe(200);
    const log = await epochLog(w.world);
    expect(log.filter((r) => r.faults.includes("vt-token-clock-150s")).length).toBe(5);
  });
});
