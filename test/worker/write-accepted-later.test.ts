import { describe, expect, it } from "vitest";
import { got } from "./clients.ts";
import { admin, createWorld, farm, type RoleInfo, rel } from "./helpers.ts";

type Call = (path: string, init?: RequestInit & { headers?: Record<string, string> }) => ReturnType<typeof got>;

function crewcallClient(info: RoleInfo): Call {
  return async (path, init = {}) =>
    got(await farm(rel(info.baseUrl) + path, { ...init, headers: { authorization: `Token ${info.credentials.api_key}`, "content-type": "application/json", ...init.headers } }));
}

type Assignment = { id: number; status: string; gig_id: number; worker_id: number };

describe("write-accepted-later (crewcall offerGig, armed at recreate)", () => {
  it("takes the second offer for later: 202 pending, replayed under its key, stored at offered two requests on; other offers are stored at once", async () => {
    const w = await createWorld({ ats: "crewcall" });
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1, faults: ["cc-offer-accepted-later"] })).status).toBe(200);
    const cc = crewcallClient(w.vendors.ats);
    const listed = async () => (await cc("/partner/v1/assignments?limit=200&offset=200")).body.records.concat((await cc("/partner/v1/assignments?limit=200")).body.records) as Assignment[];
    const offer = (gig: number, worker: number, key: string) =>
      cc("/partner/v1/assignments", { method: "POST", body: JSON.stringify({ gig_id: gig, worker_id: worker }), headers: { "idempotency-key": key } });

    const first = await offer(770012, 31048, "k1");
    expect(first.status).toBe(201);
    const second = await offer(770012, 31251, "k2");
    expect(second.status).toBe(202);
    expect(second.body.status).toBe("pending");
    expect(String(second.body.request_id)).toMatch(/^req_\d+$/);
    // Not stored yet; a repeat under the key replays the 202 and stores nothing.
    const again = await offer(770012, 31251, "k2");
    expect([again.status, again.body.request_id]).toEqual([202, second.body.request_id]);
    // Two further requests on, the offer is stored at `offered` (the list read in those two requests may not show it yet).
    expect((await cc("/partner/v1/workers/31251")).status).toBe(200);
    const mine = (await listed()).filter((a) => a.gig_id === 770012 && a.worker_id === 31251);
    expect(mine.map((a) => a.status)).toEqual(["offered"]);
    const confirmed = await cc(`/partner/v1/assignments/${mine[0].id}/confirmation`, { method: "POST", body: JSON.stringify({ status: "confirmed" }) });
    expect([confirmed.status, confirmed.body.status]).toEqual([200, "confirmed"]);
    // Only the second offer is taken for later.
    expect((await offer(770027, 31122, "k3")).status).toBe(201);
    expect((await listed()).filter((a) => a.gig_id === 770012 && a.worker_id === 31251)).toHaveLength(1);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`)).body.records as { path: string; status: number; faults: string[] }[];
    expect(log.filter((r) => r.faults.includes("cc-offer-accepted-later")).map((r) => [r.path, r.status])).toEqual([["/partner/v1/assignments", 202]]);
  });
});
