import { describe, expect, it } from "vitest";
import { got } from "./clients.ts";
import { admin, createWorld, farm, type RoleInfo, rel } from "./helpers.ts";
import { type Call, onboardlyClient } from "./onboardly-client.ts";

function crewcallClient(info: RoleInfo): Call {
  return async (path, init = {}) =>
    got(await farm(rel(info.baseUrl) + path, { ...init, headers: { authorization: `Token ${info.credentials.api_key}`, "content-type": "application/json", ...init.headers } }));
}

async function arm(world: string, faults: string[]): Promise<void> {
  expect((await admin("POST", `/v1/worlds/${world}/roles/ats/recreate`, { checkpoint: 0, faults })).status).toBe(200);
}

async function faultsLogged(world: string): Promise<{ method: string; path: string; status: number; faults: string[] }[]> {
  return (await admin("GET", `/v1/worlds/${world}/roles/ats/requests?epoch=1`)).body.records;
}

describe("paired writes that are not atomic (crewcall offerGig, then confirmAssignment)", () => {
  async function offer(cc: Call): Promise<{ id: number; status: string }> {
    const gigId = (await cc("/partner/v1/gigs?limit=1&order_by=id")).body.records[0].id;
    const workerId = (await cc("/partner/v1/workers?limit=1")).body.records[0].id;
    const res = await cc("/partner/v1/assignments", { method: "POST", body: JSON.stringify({ gig_id: gigId, worker_id: workerId }) });
    expect(res.status).toBe(201);
    return res.body;
  }

  it("armed: the offer commits, its confirmation is refused 409, the offer stays stored; a retried confirmation succeeds", async () => {
    const w = await createWorld({ ats: "crewcall" });
    await arm(w.world, ["cc-confirm-409-after-offer"]);
    const cc = crewcallClient(w.vendors.ats);
    const assignment = await offer(cc);
    expect(assignment.status).toBe("offered");
    const refused = await cc(`/partner/v1/assignments/${assignment.id}/confirmation`, { method: "POST", body: JSON.stringify({ status: "confirmed" }) });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toMatch(/board_rebalancing/);
    const stored = await cc(`/partner/v1/assignments/${assignment.id}`);
    expect(stored.status).toBe(200);
    expect(stored.body.status).toBe("offered");
    const retried = await cc(`/partner/v1/assignments/${assignment.id}/confirmation`, { method: "POST", body: JSON.stringify({ status: "confirmed" }) });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe("confirmed");
    const log = await faultsLogged(w.world);
    expect(log.filter((r) => r.faults.includes("cc-confirm-409-after-offer")).map((r) => [r.method, r.status])).toEqual([["POST", 409]]);
  });

  it("armed, without an offer first: a confirmation alone is not the second half of a pair", async () => {
    const w = await createWorld({ ats: "crewcall" });
    await arm(w.world, ["cc-confirm-409-after-offer"]);
    const cc = crewcallClient(w.vendors.ats);
    const existing = (await cc("/partner/v1/assignments?limit=1")).body.records[0];
    expect((await cc(`/partner/v1/assignments/${existing.id}/confirmation`, { method: "POST", body: JSON.stringify({ status: "confirmed" }) })).status).toBe(200);
  });

  it("unarmed: offer and confirmation both succeed", async () => {
    const w = await createWorld({ ats: "crewcall" });
    const cc = crewcallClient(w.vendors.ats);
    const assignment = await offer(cc);
    const confirmed = await cc(`/partner/v1/assignments/${assignment.id}/confirmation`, { method: "POST", body: JSON.stringify({ status: "confirmed" }) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe("confirmed");
    const invalid = await cc(`/partner/v1/assignments/${assignment.id}/confirmation`, { method: "POST", body: JSON.stringify({ status: "completed" }) });
    expect(invalid.status).toBe(422);
  });
});

describe("paired writes that are not atomic (onboardly createPacket, then addSigner)", () => {
  const signer = { first_name: "Ada", last_name: "Byrne", email: "ada.byrne@example.test", role: "new_hire", signing_order: 1, auth_method: "email_link" };

  async function createPacket(ob: Call): Promise<string> {
    const template = (await ob("/api/v1/templates?limit=1&sort=created_at")).body.data[0];
    const res = await ob("/api/v1/packets", { method: "POST", body: JSON.stringify({ template_id: template.id, job_title: "Pair probe" }) });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  it("armed: the packet commits, adding its signer answers 503, the packet stays without signers; adding it again succeeds", async () => {
    const w = await createWorld({ ats: "onboardly" });
    await arm(w.world, ["ob-signer-503-after-packet"]);
    const ob = await onboardlyClient(w.vendors.ats);
    const packet = await createPacket(ob);
    const refused = await ob(`/api/v1/packets/${packet}/signers`, { method: "POST", body: JSON.stringify(signer) });
    expect(refused.status).toBe(503);
    expect(refused.body.error_code).toBe("signing_unavailable");
    expect((await ob(`/api/v1/packets/${packet}`)).status).toBe(200);
    expect((await ob(`/api/v1/packets/${packet}/signers`)).body.data).toEqual([]);
    const again = await ob(`/api/v1/packets/${packet}/signers`, { method: "POST", body: JSON.stringify(signer) });
    expect(again.status).toBe(201);
    expect((await ob(`/api/v1/packets/${packet}/signers`)).body.data.map((s: { id: string }) => s.id)).toEqual([again.body.id]);
    expect((await faultsLogged(w.world)).filter((r) => r.faults.includes("ob-signer-503-after-packet")).map((r) => r.status)).toEqual([503]);
  });

  it("unarmed: packet and signer both succeed", async () => {
    const w = await createWorld({ ats: "onboardly" });
    const ob = await onboardlyClient(w.vendors.ats);
    const packet = await createPacket(ob);
    expect((await ob(`/api/v1/packets/${packet}/signers`, { method: "POST", body: JSON.stringify(signer) })).status).toBe(201);
  });
});
