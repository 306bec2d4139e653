import { describe, expect, it } from "vitest";
import { hirewireClient } from "./clients.ts";
import { admin, createWorld } from "./helpers.ts";

describe("error after commit (hirewire moveStage, armed at recreate)", () => {
  it("commits the third move, answers 500 anyway, logs the fault, and replays the commit to a retry with the same key", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["hw-stage-500-after-commit"] });
    expect(re.status).toBe(200);
    const hw = hirewireClient(w.vendors.ats);
    const move = (id: number, key: string) => hw(`/v1/candidates/${id}/stage`, { method: "POST", headers: { "content-type": "application/json", "idempotency-key": key }, body: JSON.stringify({ stage: "rejected" }) });
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
    for (const id of [1001, 1002, 1003]) expect((await hw(`/v1/candidates/${id}/stage`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ stage: "offer" }) })).status).toBe(200);
    const bad = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["meteor-strike"] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/declares no fault "meteor-strike"/);
  });
});
