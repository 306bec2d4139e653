import { describe, expect, it } from "vitest";
import { stafflineClient } from "./clients.ts";
import { admin, createWorld } from "./helpers.ts";

const noteIds = async (world: string): Promise<string[]> => ((await admin("GET", `/v1/worlds/${world}/roles/ats/records`)).body.entities.note as { id: string }[]).map((n) => n.id);

describe("multi-status-phantom (staffline bulkCreateNotes, armed at recreate)", () => {
  it("reports the third created note of the epoch as created, with an id, and never stores it; later creates get fresh ids", async () => {
    const w = await createWorld({ ats: "staffline" });
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["sl-bulk-phantom"] })).status).toBe(200);
    const sl = stafflineClient(w.vendors.ats);
    const candidate = (await sl("/svc/candidates?count=1")).body.results[0];
    const before = await noteIds(w.world);
    const notes = [1, 2, 3, 4].map((n) => ({ candidate_id: String(candidate.id), note_text: `bulk note ${n}` }));
    const bulk = await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body: JSON.stringify({ notes }) });
    expect(bulk.status).toBe(207);
    const results = bulk.body.results as { index: number; status: number; id: string }[];
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const stored = await noteIds(w.world);
    const added = stored.filter((id) => !before.includes(id));
    expect(added).toEqual([results[0].id, results[1].id, results[3].id]);
    expect(stored).not.toContain(results[2].id);

    const single = await sl("/svc/rpc/createNote", { method: "POST", body: JSON.stringify(notes[0]) });
    expect(single.body.success).toBe(true);
    expect([results[0].id, results[1].id, results[2].id, results[3].id]).not.toContain(single.body.id);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`)).body.records as { path: string; faults: string[] }[];
    expect(log.filter((r) => r.faults.includes("sl-bulk-phantom")).map((r) => r.path)).toEqual(["/svc/rpc/bulkCreateNotes"]);
  });
});
