import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { verifySignature } from "../../mechanics/signatures/index.ts";
import { got, type Got } from "./clients.ts";
import { admin, advanceClock, farm, rel, roleObject, type RoleInfo } from "./helpers.ts";

const RECEIVER = "http://receiver.test/hooks";
const WEBHOOK_VENDORS = Object.values(VENDORS).filter((v) => v.webhooks);

interface Outboxed {
  id: string;
  eventId: string;
  attempt: number;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A world of one vendor; relayed, so its deliveries wait in the outbox for the test to read. */
async function world(vendor: string, opts: { target: boolean; checkpoint?: number }) {
  const res = await admin("POST", "/v1/worlds", {
    vendors: { ats: vendor },
    seed: 8,
    checkpoint: opts.checkpoint ?? 0,
    ...(opts.target ? { webhookTargets: { ats: RECEIVER }, relay: true } : {}),
  });
  expect(res.status).toBe(201);
  return res.body as { world: string; vendors: { ats: RoleInfo } };
}

/**
 * The headers a client authenticates with, from the declaration: each mint in
 * order (client credentials posted as a form; a session exchange presenting
 * the token it requires as a bearer), then the request's presentation rules.
 */
async function authHeaders(vendor: Vendor, info: RoleInfo): Promise<Record<string, string>> {
  const base = rel(info.baseUrl);
  const tokens: Record<string, string> = {};
  for (const m of vendor.auth.mints) {
    let res: Got;
    if (m.kind === "client_credentials") {
      const form = new URLSearchParams({ grant_type: "client_credentials", client_id: info.credentials[m.clientId], client_secret: info.credentials[m.clientSecret] });
      res = await got(await farm(base + m.path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() }));
      tokens[m.issues] = res.body.access_token;
    } else if (m.kind === "session_exchange") {
      res = await got(await farm(base + m.path, { method: "POST", headers: { authorization: `Bearer ${tokens[m.requires]}` } }));
      tokens[m.issues] = res.body[m.responseField];
    } else throw new Error(`no test client for mint ${m.kind}`);
    expect(res.status, `${vendor.id} ${m.path}`).toBe(200);
  }
  const headers: Record<string, string> = {};
  for (const p of vendor.auth.present) {
    if (p.kind !== "header") throw new Error(`no test client for ${p.kind}`);
    const value = "credential" in p.value ? info.credentials[p.value.credential] : tokens[p.value.token];
    headers[p.name] = p.scheme ? `${p.scheme} ${value}` : value;
  }
  return headers;
}

function testDelivery(vendor: Vendor, info: RoleInfo, body: unknown, headers: Record<string, string>): Promise<Got> {
  return farm(rel(info.baseUrl) + vendor.webhooks!.testDelivery!.path, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) }).then(got);
}

/** The vendor's error body, unwrapped. */
function errorOf(vendor: Vendor, body: any): Record<string, unknown> {
  return vendor.errors.wrap ? body[vendor.errors.wrap] : body;
}

async function drain(worldId: string): Promise<Outboxed[]> {
  const res = await admin("GET", `/v1/worlds/${worldId}/roles/ats/outbox`);
  expect(res.status).toBe(200);
  return res.body.deliveries;
}

async function requestsTo(worldId: string, path: string) {
  const log = (await admin("GET", `/v1/worlds/${worldId}/roles/ats/requests`)).body.records as { path: string; status: number; authOutcome: string }[];
  return log.filter((r) => r.path.endsWith(path));
}

describe.each(WEBHOOK_VENDORS.map((v) => [v.id, v] as const))("%s's test-delivery route", (_id, vendor) => {
  const hooks = vendor.webhooks!;
  const entity = hooks.entities[0];
  const resource = vendor.resources.find((r) => r.name === entity)!;

  it("signs and delivers a real event of the chosen type to the registered receiver, logged once", async () => {
    const w = await world(vendor.id, { target: true });
    const headers = await authHeaders(vendor, w.vendors.ats);
    const type = `${entity}.updated`;
    const res = await testDelivery(vendor, w.vendors.ats, { [hooks.testDelivery!.typeField]: type }, headers);
    expect(res.status, res.text).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^evt_\d{5}$/), type });

    await runDurableObjectAlarm(roleObject(w.world, "ats"));
    const out = await drain(w.world);
    expect(out.map((d) => [d.eventId, d.attempt, d.url])).toEqual([[res.body.id, 1, RECEIVER]]);
    const [d] = out;
    const secret = w.vendors.ats.credentials[hooks.signature.secret];
    expect(await verifySignature(hooks.signature, secret, d.headers, d.body, Math.floor(Date.now() / 1000), hooks.maxSkewS)).toBeNull();
    // The same check refuses a body changed by one character.
    expect(await verifySignature(hooks.signature, secret, d.headers, `${d.body} `, Math.floor(Date.now() / 1000), hooks.maxSkewS)).not.toBeNull();

    // The event is built from the entity's first live record, in the vendor's payload style.
    const truth = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/records`)).body.entities[entity] as { deleted: boolean; record: Record<string, unknown> }[];
    const first = truth.find((r) => !r.deleted)!.record;
    const event = JSON.parse(d.body);
    expect(event).toMatchObject({ id: res.body.id, type });
    expect(event.data).toEqual(hooks.payload === "full" ? first : { [resource.idField]: first[resource.idField] });

    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${d.id}/result`, { responseCode: 204, body: JSON.stringify({ [hooks.ack?.field ?? "ok"]: d.eventId }) })).status).toBe(200);
    const deliveries = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/webhooks`)).body.records as { eventId: string; attempt: number; responseCode: number }[];
    expect(deliveries.map((r) => [r.eventId, r.attempt, r.responseCode])).toEqual([[res.body.id, 1, 204]]);
    expect((await requestsTo(w.world, hooks.testDelivery!.path)).map((r) => [r.status, r.authOutcome])).toEqual([[202, "ok"]]);
  });

  it("refuses an unknown or missing event type in the vendor's own error shape, delivering nothing", async () => {
    const w = await world(vendor.id, { target: true });
    const headers = await authHeaders(vendor, w.vendors.ats);
    const field = hooks.testDelivery!.typeField;
    for (const body of [{ [field]: `${entity}.exploded` }, { [field]: "ping" }, {}, { [field]: 7 }]) {
      const res = await testDelivery(vendor, w.vendors.ats, body, headers);
      expect(res.status, JSON.stringify(body)).toBe(422);
      const err = errorOf(vendor, res.body);
      expect(err[vendor.errors.codeField]).toBe("validation_failed");
      expect(String(err[vendor.errors.messageField])).toContain(`${entity}.created`);
      expect(err[vendor.errors.fieldErrorsField]).toEqual([expect.objectContaining({ field })]);
    }
    const notJson = await got(await farm(rel(w.vendors.ats.baseUrl) + hooks.testDelivery!.path, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: "{" }));
    expect(notJson.status).toBe(400);
    await runDurableObjectAlarm(roleObject(w.world, "ats"));
    expect(await drain(w.world)).toEqual([]);
    expect((await requestsTo(w.world, hooks.testDelivery!.path)).map((r) => r.status)).toEqual([422, 422, 422, 422, 400]);
  });

  it("says so with a 4xx when no receiver is registered, even after a self-subscription", async () => {
    const w = await world(vendor.id, { target: false });
    const headers = await authHeaders(vendor, w.vendors.ats);
    if (hooks.subscriptionPath) {
      const sub = await got(
        await farm(rel(w.vendors.ats.baseUrl) + hooks.subscriptionPath, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ url: "https://example.test/hooks" }),
        }),
      );
      expect(sub.status).toBe(201);
    }
    const res = await testDelivery(vendor, w.vendors.ats, { [hooks.testDelivery!.typeField]: `${entity}.created` }, headers);
    expect(res.status).toBe(409);
    expect(errorOf(vendor, res.body)[vendor.errors.codeField]).toBe("no_webhook_endpoint");
    expect((await admin("GET", `/v1/worlds/${w.world}/roles/ats/webhooks`)).body.records).toEqual([]);
  });

  it("requires the vendor's normal auth", async () => {
    const w = await world(vendor.id, { target: true });
    const res = await testDelivery(vendor, w.vendors.ats, { [hooks.testDelivery!.typeField]: `${entity}.created` }, {});
    expect(res.status).toBe(401);
    const wrong = Object.fromEntries(Object.entries(await authHeaders(vendor, w.vendors.ats)).map(([k, v]) => [k, `${v}0`]));
    expect((await testDelivery(vendor, w.vendors.ats, { [hooks.testDelivery!.typeField]: `${entity}.created` }, wrong)).status).toBe(401);
    await runDurableObjectAlarm(roleObject(w.world, "ats"));
    expect(await drain(w.world)).toEqual([]);
    expect((await requestsTo(w.world, hooks.testDelivery!.path)).map((r) => [r.status, r.authOutcome])).toEqual([
      [401, "missing"],
      [401, "invalid"],
    ]);
  });
});

/**
 * The deliveries the role's alarm hands the outbox once the role's clock has
 * moved `afterMs` on (a retry's backoff): the test clock is moved, never slept on.
 */
async function nextDeliveries(worldId: string, afterMs = 0): Promise<Outboxed[]> {
  await advanceClock(worldId, "ats", afterMs);
  // Run the alarm now; on a loaded machine workerd may have run it already (it is due at once), which
  // is as good: either way the deliveries are in the outbox, and an empty outbox fails the caller.
  await runDurableObjectAlarm(roleObject(worldId, "ats"));
  return drain(worldId);
}

describe("a test delivery of a deleted event", () => {
  it("names a record the world has deleted, by id, and a refused one is retried and dead-lettered like any event", async () => {
    // TalentLoop from checkpoint 4: the ack-body protocol, dead letters after two attempts.
    const vendor = VENDORS.talentloop;
    const hooks = vendor.webhooks!;
    const w = await world("talentloop", { target: true, checkpoint: 4 });
    const truth = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/records`)).body.entities as Record<string, { id: string; deleted: boolean; record: Record<string, unknown> }[]>;
    const entity = hooks.entities.find((e) => truth[e].some((r) => r.deleted))!;
    expect(entity).toBeDefined();
    const headers = await authHeaders(vendor, w.vendors.ats);
    const res = await testDelivery(vendor, w.vendors.ats, { [hooks.testDelivery!.typeField]: `${entity}.deleted` }, headers);
    expect(res.status, res.text).toBe(202);
    let [d] = await nextDeliveries(w.world);
    const idField = vendor.resources.find((r) => r.name === entity)!.idField;
    const deleted = truth[entity].find((r) => r.deleted)!;
    expect(JSON.parse(d.body).data).toEqual({ [idField]: deleted.record[idField] });

    // Answered 200 without the ack body each time: retried on the schedule, then dead-lettered.
    const attempts = Math.min(hooks.ack!.maxAttempts ?? Number.POSITIVE_INFINITY, hooks.retrySchedule.length + 1);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      expect([d.eventId, d.attempt]).toEqual([res.body.id, attempt]);
      expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/outbox/${d.id}/result`, { responseCode: 200, body: "{}" })).status).toBe(200);
      if (attempt < attempts) [d] = await nextDeliveries(w.world, hooks.retrySchedule[attempt - 1] * 1000);
    }
    const dead = await got(await farm(rel(w.vendors.ats.baseUrl) + hooks.ack!.deadLetterPath, { headers }));
    expect(dead.status).toBe(200);
    expect(dead.body.data).toEqual([JSON.parse(d.body)]);
  });
});
