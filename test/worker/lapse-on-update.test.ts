import { describe, expect, it } from "vitest";
import { got } from "./clients.ts";
import { admin, createWorld, farm, type RoleInfo, rel } from "./helpers.ts";

type Call = (path: string, init?: RequestInit & { headers?: Record<string, string> }) => ReturnType<typeof got>;

function crewcallClient(info: RoleInfo): Call {
  return async (path, init = {}) =>
    got(await farm(rel(info.baseUrl) + path, { ...init, headers: { authorization: `Token ${info.credentials.api_key}`, "content-type": "application/json", ...init.headers } }));
}

const confirmBody = JSON.stringify({ status: "confirmed" });

describe("lapse-on-update (crewcall confirmAssignment on an offer made before November, armed at recreate)", () => {
  it("lapses the first old offer confirmed: 409 offer_expired, stored as expired, refused on every retry; new offers and later old ones confirm", async () => {
    const w = await createWorld({ ats: "crewcall" });
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["cc-offer-lapses-before-confirm"] })).status).toBe(200);
    const cc = crewcallClient(w.vendors.ats);
    const all = (await cc("/partner/v1/assignments?limit=200")).body.records as { id: number; status: string; created_at: string; gig_id: number; worker_id: number }[];
    const old = all.filter((a) => a.status === "offered" && Date.parse(a.created_at) < Date.parse("2023-11-01T00:00:00Z"));
    expect(old.length).toBeGreaterThanOrEqual(2);

    // An offer made now is no old offer: it confirms.
    const fresh = await cc("/partner/v1/assignments", { method: "POST", body: JSON.stringify({ gig_id: old[0].gig_id, worker_id: old[0].worker_id }) });
    expect(fresh.status).toBe(201);
    expect((await cc(`/partner/v1/assignments/${fresh.body.id}/confirmation`, { method: "POST", body: confirmBody })).status).toBe(200);

    const lapsed = await cc(`/partner/v1/assignments/${old[0].id}/confirmation`, { method: "POST", body: confirmBody });
    expect(lapsed.status).toBe(409);
    expect(lapsed.body.code).toBe("offer_expired");
    expect((await cc(`/partner/v1/assignments/${old[0].id}`)).body.status).toBe("expired");
    const listed = (await cc("/partner/v1/assignments?limit=200")).body.records as { id: number; status: string }[];
    expect(listed.find((a) => a.id === old[0].id)?.status).toBe("expired");
    const again = await cc(`/partner/v1/assignments/${old[0].id}/confirmation`, { method: "POST", body: confirmBody });
    expect([again.status, again.body.code]).toEqual([409, "offer_expired"]);

    // Only the first old offer confirmed lapses.
    const second = await cc(`/partner/v1/assignments/${old[1].id}/confirmation`, { method: "POST", body: confirmBody });
    expect([second.status, second.body.status]).toEqual([200, "confirmed"]);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`)).body.records as { path: string; status: number; faults: string[] }[];
    expect(log.filter((r) => r.faults.includes("cc-offer-lapses-before-confirm")).map((r) => [r.path, r.status])).toEqual([
      [`/partner/v1/assignments/${old[0].id}/confirmation`, 409],
      [`/partner/v1/assignments/${old[0].id}/confirmation`, 409],
    ]);
  });
});
