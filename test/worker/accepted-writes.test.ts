import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { got, type Got } from "./clients.ts";
import { admin, farm, type RoleInfo, rel } from "./helpers.ts";

interface Delivery {
  id: string;
  eventId: string;
  body: string;
}

/** A world of one vendor whose webhooks go to the relay outbox. */
async function relayWorld(vendor: string): Promise<{ world: string; info: RoleInfo }> {
  const res = await admin("POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 3, webhookTargets: { ats: "http://receiver.test/hooks" }, relay: true });
  expect(res.status).toBe(201);
  return { world: res.body.world, info: res.body.vendors.ats };
}

/** Runs the alarm and takes the relay outbox's deliveries. */
async function delivered(world: string): Promise<Delivery[]> {
  await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${world}/ats`)));
  return (await admin("GET", `/v1/worlds/${world}/roles/ats/outbox`)).body.deliveries;
}

async function interviewlyClient(info: RoleInfo) {
  const base = rel(info.baseUrl);
  const token = await got(
    await farm(`${base}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: info.credentials.client_id, client_secret: info.credentials.client_secret }).toString(),
    }),
  );
  expect(token.status).toBe(200);
  return async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Got> =>
    got(await farm(base + path, { ...init, headers: { authorization: `Bearer ${token.body.access_token}`, "content-type": "application/json", ...init.headers } }));
}

function sourcewellClient(info: RoleInfo) {
  return async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Got> =>
    got(await farm(rel(info.baseUrl) + path, { ...init, headers: { "x-sw-key": info.credentials.api_key, "content-type": "application/json", ...init.headers } }));
}

describe("accepted writes (interviewly scheduleInterview: 202, then the interview, then its webhook)", () => {
  it("answers 202 with a request id; the interview appears only after 3 further requests; interview.created carries the request id; each request is logged once", async () => {
    const { world, info } = await relayWorld("interviewly");
    const iv = await interviewlyClient(info);
    const candidate = (await iv("/v1/candidates?limit=1")).body.entries[0];
    const panelist = (await iv("/v1/panelists?limit=1")).body.entries[0];
    const before = (await iv("/v1/interviews?limit=1")).body.total_entries as number;
    const body = {
      candidate_id: candidate.id,
      organizer_id: panelist.id,
      kind: "technical",
      format: "video",
      job_title: "Accepted-write probe",
      starts_at: 1_756_000_800,
      duration_minutes: 60,
      time_zone: "Europe/Berlin",
    };
    const accepted = await iv("/v1/interviews", { method: "POST", headers: { "idempotency-key": "ivw-accept-1" }, body: JSON.stringify(body) });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ request_id: expect.stringMatching(/^ivreq_\d{6}$/), status: "pending" });
    const requestId = accepted.body.request_id as string;

    // The 202 is pending: the next three requests (whatever they are) do not see the interview.
    for (let i = 0; i < 3; i++) {
      const page = await iv(`/v1/interviews?offset=${before}&limit=100`);
      expect(page.body.total_entries, `further request ${i + 1}`).toBe(before);
      expect(page.body.entries).toEqual([]);
    }
    expect(await delivered(world)).toEqual([]);
    const landed = await iv(`/v1/interviews?offset=${before}&limit=100`);
    expect(landed.body.total_entries).toBe(before + 1);
    const interview = landed.body.entries[0];
    expect(interview).toMatchObject({ candidate_id: candidate.id, job_title: "Accepted-write probe", status: "awaiting_availability" });
    expect((await iv(`/v1/interviews/${interview.id}`)).status).toBe(200);

    // A replay of the same key gets the same request id and lands nothing more.
    const replay = await iv("/v1/interviews", { method: "POST", headers: { "idempotency-key": "ivw-accept-1" }, body: JSON.stringify(body) });
    expect(replay.status).toBe(202);
    expect(replay.body.request_id).toBe(requestId);

    // The webhook confirms the request: interview.created with the request id at its top level.
    const out = await delivered(world);
    const confirming = out.filter((d) => JSON.parse(d.body).request_id === requestId);
    expect(confirming).toHaveLength(1);
    expect(JSON.parse(confirming[0].body)).toMatchObject({ type: "interview.created", request_id: requestId, data: { id: interview.id, job_title: "Accepted-write probe" } });
    const ack = await admin("POST", `/v1/worlds/${world}/roles/ats/outbox/${confirming[0].id}/result`, { responseCode: 200, body: JSON.stringify({ ack: confirming[0].eventId }) });
    expect(ack.status).toBe(200);
    const deliveries = (await admin("GET", `/v1/worlds/${world}/roles/ats/webhooks`)).body.records as { eventId: string; acked: boolean | null }[];
    expect(deliveries.filter((d) => d.eventId === confirming[0].eventId)).toEqual([expect.objectContaining({ eventId: confirming[0].eventId, acked: true })]);

    // More traffic lands nothing twice.
    for (let i = 0; i < 5; i++) await iv("/v1/panelists?limit=1");
    expect((await iv("/v1/interviews?limit=1")).body.total_entries).toBe(before + 1);

    const log = (await admin("GET", `/v1/worlds/${world}/roles/ats/requests`)).body.records as { method: string; path: string; status: number }[];
    expect(log.filter((r) => r.method === "POST" && r.path === "/v1/interviews").map((r) => r.status)).toEqual([202, 202]);
    const status = (await admin("GET", `/v1/worlds/${world}`)).body.roles.ats;
    expect(status.requests).toBe(log.length);
    expect(status.unloggedRequests).toBe(0);
  });

  it("refuses an invalid request at once (422), and accepts nothing for it", async () => {
    const { world, info } = await relayWorld("interviewly");
    const iv = await interviewlyClient(info);
    const before = (await iv("/v1/interviews?limit=1")).body.total_entries as number;
    const bad = await iv("/v1/interviews", { method: "POST", body: JSON.stringify({ kind: "technical" }) });
    expect(bad.status).toBe(422);
    expect(bad.body.fields.map((f: { field: string }) => f.field)).toContain("candidate_id");
    for (let i = 0; i < 5; i++) await iv("/v1/panelists?limit=1");
    expect((await iv("/v1/interviews?limit=1")).body.total_entries).toBe(before);
    expect(await delivered(world)).toEqual([]);
  });

  it("documents the 202 and the confirming event", async () => {
    const { info } = await relayWorld("interviewly");
    const docs = rel(info.docsUrl);
    const api = (await (await farm(`${docs}openapi.json`)).json()) as any;
    const op = api.paths["/v1/interviews"].post;
    expect(Object.keys(op.responses)).toContain("202");
    expect(Object.keys(op.responses)).not.toContain("201");
    expect(op.responses["202"].content["application/json"].schema.required).toEqual(["request_id", "status"]);
    expect(op.description).toMatch(/interview\.created/);
    const hooks = await (await farm(`${docs}webhooks.md`)).text();
    expect(hooks).toMatch(/`scheduleInterview` \(`interview\.created`, with `request_id`\)/);
  });
});

describe("accepted writes turned down as they land (interviewly rescheduleInterview, accepted-write-refused)", () => {
  it("answers 202, then leaves the interview alone and pushes interview.reschedule_failed with the request id and the error; other interviews still move", async () => {
    const { world, info } = await relayWorld("interviewly");
    const re = await admin("POST", `/v1/worlds/${world}/roles/ats/recreate`, { checkpoint: 1, faults: ["iv-reschedule-calendar-conflict"] });
    expect(re.status).toBe(200);
    const iv = await interviewlyClient(info);
    const before = (await iv("/v1/interviews/ivw_000022")).body;
    const other = (await iv("/v1/interviews/ivw_000021")).body;
    const refused = await iv("/v1/interviews/ivw_000022", { method: "PATCH", headers: { "idempotency-key": "mv-22" }, body: JSON.stringify({ starts_at: before.starts_at + 86_400 }) });
    expect(refused.status).toBe(202);
    const moved = await iv("/v1/interviews/ivw_000021", { method: "PATCH", headers: { "idempotency-key": "mv-21" }, body: JSON.stringify({ starts_at: other.starts_at + 86_400 }) });
    expect(moved.status).toBe(202);
    for (let i = 0; i < 4; i++) await iv("/v1/panelists?limit=1");
    expect((await iv("/v1/interviews/ivw_000022")).body.starts_at).toBe(before.starts_at);
    expect((await iv("/v1/interviews/ivw_000021")).body.starts_at).toBe(other.starts_at + 86_400);

    const bodies = (await delivered(world)).map((d) => JSON.parse(d.body));
    const forRefused = bodies.filter((b) => b.request_id === refused.body.request_id);
    expect(forRefused).toHaveLength(1);
    expect(forRefused[0]).toMatchObject({
      type: "interview.reschedule_failed",
      request_id: refused.body.request_id,
      error: { code: "calendar_conflict", message: expect.stringContaining("keeps its current slot") },
      data: { id: "ivw_000022", starts_at: before.starts_at },
    });
    expect(bodies.filter((b) => b.request_id === moved.body.request_id).map((b) => b.type)).toEqual(["interview.updated"]);

    // The same key replays the stored 202; nothing new is queued or refused.
    const replay = await iv("/v1/interviews/ivw_000022", { method: "PATCH", headers: { "idempotency-key": "mv-22" }, body: JSON.stringify({ starts_at: before.starts_at + 86_400 }) });
    expect(replay.body.request_id).toBe(refused.body.request_id);
    for (let i = 0; i < 4; i++) await iv("/v1/panelists?limit=1");
    expect((await delivered(world)).filter((d) => JSON.parse(d.body).request_id === refused.body.request_id)).toEqual([]);

    const log = (await admin("GET", `/v1/worlds/${world}/roles/ats/requests`)).body.records as { faults: string[] }[];
    expect(log.filter((r) => r.faults.includes("iv-reschedule-calendar-conflict"))).toHaveLength(1);
  });

  it("sends a test refusal event on request (test-delivery route), with a request id numbered 0 and a sample error", async () => {
    const { world, info } = await relayWorld("interviewly");
    const iv = await interviewlyClient(info);
    const sent = await iv("/v1/webhook_subscriptions/test", { method: "POST", body: JSON.stringify({ event: "interview.reschedule_failed" }) });
    expect(sent.status).toBe(202);
    expect(sent.body.type).toBe("interview.reschedule_failed");
    const body = (await delivered(world)).map((d) => JSON.parse(d.body)).find((b) => b.id === sent.body.id);
    expect(body).toMatchObject({ type: "interview.reschedule_failed", request_id: "ivreq_000000", error: { code: "test_event" }, data: { id: expect.stringMatching(/^ivw_/) } });
    const unknown = await iv("/v1/webhook_subscriptions/test", { method: "POST", body: JSON.stringify({ event: "interview.schedule_failed" }) });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/interview\.reschedule_failed/);
  });

  it("documents the refusal event", async () => {
    const { info } = await relayWorld("interviewly");
    const hooks = await (await farm(`${rel(info.docsUrl)}webhooks.md`)).text();
    expect(hooks).toMatch(/`interview\.reschedule_failed` \| an accepted `rescheduleInterview` call was turned down/);
    expect(hooks).toMatch(/`rescheduleInterview` \(`interview\.reschedule_failed`\)/);
    expect(hooks).toMatch(/`interview\.reschedule_failed` carries the first record of its kind, a request id numbered 000000/);
  });
});

describe("accepted writes (sourcewell createEndorsement: id-only hooks)", () => {
  it("answers 202 with rid; the endorsement lands after 2 further requests; the id-only hook carries rid", async () => {
    const { world, info } = await relayWorld("sourcewell");
    const sw = sourcewellClient(info);
    const talent = (await sw("/v3/talent?lim=1")).body.d[0];
    const skill = (await sw("/v3/skills?lim=1")).body.d[0];
    const before = (await sw("/v3/endorsements?lim=1")).body.cnt as number;
    const res = await sw("/v3/endorsements", { method: "POST", body: JSON.stringify({ tid: talent.id, sid: skill.id, lvl: 4, src: "peer", by: "Ines" }) });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ rid: expect.stringMatching(/^swr_\d{6}$/), status: "pending" });
    expect((await sw("/v3/endorsements?lim=1")).body.cnt).toBe(before);
    expect((await sw("/v3/endorsements?lim=1")).body.cnt).toBe(before);
    const page = await sw(`/v3/endorsements?off=${before}&lim=10`);
    expect(page.body.cnt).toBe(before + 1);
    const endorsement = page.body.d[0];
    expect(endorsement).toMatchObject({ tid: talent.id, sid: skill.id, lvl: 4, by: "Ines" });
    const hook = (await delivered(world)).map((d) => JSON.parse(d.body)).find((b) => b.rid === res.body.rid);
    expect(hook).toMatchObject({ type: "endorsement.created", rid: res.body.rid, data: { id: endorsement.id } });
    expect(Object.keys(hook.data)).toEqual(["id"]);
  });
});
