import { describe, expect, it } from "vitest";
import { hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, createWorld } from "./helpers.ts";

describe("RPC writes that fail inside a 200 (staffline createNote)", () => {
  it("creates a note, and reports a missing field as success=false with HTTP 200", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const ok = await sl("/svc/rpc/createNote", { method: "POST", body: JSON.stringify({ candidate_id: "cand_0001", note_text: "Called, left voicemail." }) });
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);
    const notes = (await sl("/svc/candidates/cand_0001/notes?count=100")).body.results;
    expect(notes.some((n: any) => n.id === ok.body.id && n.note_text === "Called, left voicemail.")).toBe(true);
    const bad = await sl("/svc/rpc/createNote", { method: "POST", body: JSON.stringify({ candidate_id: "cand_0001" }) });
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ success: false, error_code: "validation_failed" });
    expect(bad.body.error_message).toMatch(/note_text is required/);
    const unknown = await sl("/svc/rpc/createNote", { method: "POST", body: JSON.stringify({ candidate_id: "cand_9999", note_text: "x" }) });
    expect(unknown.body.success).toBe(false);
  });
});

describe("bulk writes answering 207 with a body request_id (staffline bulkCreateNotes)", () => {
  it("creates the valid items, reports the invalid ones, and replays a reused request_id", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const body = JSON.stringify({
      request_id: "batch-1",
      notes: [{ candidate_id: "cand_0002", note_text: "Bulk one." }, { candidate_id: "cand_0002" }, { candidate_id: "cand_9999", note_text: "No such candidate." }, "junk"],
    });
    const first = await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body });
    expect(first.status).toBe(207);
    expect(first.body.results.map((r: any) => r.status)).toEqual([201, 422, 422, 422]);
    expect(first.body.results[1].errors[0]).toEqual({ field: "note_text", message: "is required" });
    const again = await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body });
    expect(again.body).toEqual(first.body);
    const notes = (await sl("/svc/candidates/cand_0002/notes?count=100")).body.results;
    expect(notes.filter((n: any) => n.note_text === "Bulk one.")).toHaveLength(1);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.filter((r: any) => r.path.endsWith("bulkCreateNotes")).map((r: any) => r.idempotencyKey)).toEqual(["batch-1", "batch-1"]);
  });

  it("refuses an empty or oversized batch", async () => {
    const w = await createWorld({ ats: "staffline" });
    const sl = stafflineClient(w.vendors.ats);
    const empty = await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body: JSON.stringify({ notes: [] }) });
    expect(empty.body).toMatchObject({ success: false, error_code: "invalid_body" });
    const many = Array.from({ length: 51 }, () => ({ candidate_id: "cand_0001", note_text: "x" }));
    const big = await sl("/svc/rpc/bulkCreateNotes", { method: "POST", body: JSON.stringify({ notes: many }) });
    expect(big.body).toMatchObject({ success: false, error_code: "too_many_items" });
  });
});

describe("idempotent writes with 422 field errors (talentforge addNote)", () => {
  it("replays the first answer for a reused Idempotency-Key without writing twice", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const send = () => tf("/rest/candidates/cand_00002/notes", { method: "POST", headers: { "idempotency-key": "k-1" }, body: JSON.stringify({ body: "Strong panel.", author: "Rosa" }) });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await tf(`/rest/candidates/cand_00002/notes${cursor ? `?cursor=${cursor}` : ""}`);
      all.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(all.filter((n) => n.body === "Strong panel.")).toHaveLength(1);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.filter((r: any) => r.path.endsWith("/notes") && r.method === "POST").map((r: any) => r.idempotencyKey)).toEqual(["k-1", "k-1"]);
  });

  it("answers 422 with field errors", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const res = await tf("/rest/candidates/cand_00002/notes", { method: "POST", body: JSON.stringify({ body: 42 }) });
    expect(res.status).toBe(422);
    expect(res.body.error.field_errors).toEqual([
      { field: "body", message: "must be a string" },
      { field: "author", message: "is required" },
    ]);
  });

  it("requires If-Match on candidate updates: 428 without, 412 stale, 200 current", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const read = await tf("/rest/candidates/cand_00003");
    const etag = read.headers.get("etag")!;
    const body = JSON.stringify({ phone: "+15555550100" });
    expect((await tf("/rest/candidates/cand_00003", { method: "PATCH", body })).status).toBe(428);
    expect((await tf("/rest/candidates/cand_00003", { method: "PATCH", body, headers: { "if-match": '"stale"' } })).status).toBe(412);
    const ok = await tf("/rest/candidates/cand_00003", { method: "PATCH", body, headers: { "if-match": etag } });
    expect(ok.status).toBe(200);
    expect(ok.body.phone).toBe("+15555550100");
    expect(ok.headers.get("etag")).not.toBe(etag);
    expect((await tf("/rest/candidates/cand_00003", { method: "PATCH", body, headers: { "if-match": etag } })).status).toBe(412);
  });
});

describe("writes whose list visibility lags (hirewire moveStage)", () => {
  it("shows the new stage on GET at once and in lists only after the lag", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const hw = hirewireClient(w.vendors.ats);
    const before = (await hw("/v1/candidates/1001")).body.stage;
    const target = before === "rejected" ? "new" : "rejected";
    const moved = await hw("/v1/candidates/1001/stage", { method: "POST", body: JSON.stringify({ stage: target }), headers: { "content-type": "application/json", "idempotency-key": "m1" } });
    expect(moved.status).toBe(200);
    expect((await hw("/v1/candidates/1001")).body.stage).toBe(target);
    const listed = async () => (await hw("/v1/candidates?per_page=1")).body.data[0].stage;
    expect(await listed()).toBe(before);
    await listed();
    await listed();
    expect(await listed()).toBe(target);
  });

  it("rejects an unknown stage with 422", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const res = await hirewireClient(w.vendors.ats)("/v1/candidates/1001/stage", { method: "POST", body: JSON.stringify({ stage: "limbo" }), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe("stage");
  });
});
