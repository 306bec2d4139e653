import { describe, expect, it } from "vitest";
import type { Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import staffline from "../../vendors/staffline.ts";
import { carriesNote, landedNotes, type NoteIntent, noteRefusal } from "./staffline-notes.ts";

const cand = (id: string, deleted = false): SnapshotRecord => ({ id, deleted, record: { id } });
const note = (id: string, n: NoteIntent, deleted = false): SnapshotRecord => ({ id, deleted, record: { candidate_id: n.candidateId, note_text: n.text, author: n.author } });
const snap = (candidates: SnapshotRecord[], notes: SnapshotRecord[] = []): Snapshot => ({ checkpoint: 0, epoch: 1, entities: { candidate: candidates, note: notes } });
const truth = snap([cand("c1"), cand("c2", true)]);
const ok: NoteIntent = { candidateId: "c1", text: "Called back.", author: "ana" };
const SINGLE = { write: "createNote", deletedCandidate: "candidate_deleted" } as const;
const BULK = { write: "bulkCreateNotes", deletedCandidate: "candidate_not_found" } as const;

describe("noteRefusal", () => {
  it("takes a note on a live candidate with text within the declared bounds", () => {
    expect(noteRefusal(staffline, ok, truth, SINGLE)).toBeNull();
    expect(noteRefusal(staffline, { ...ok, text: "x".repeat(2000) }, truth, BULK)).toBeNull();
  });
  it("refuses in the tickets' order: the candidate first, then the text", () => {
    expect(noteRefusal(staffline, { ...ok, candidateId: "c2", text: "" }, truth, SINGLE)).toBe("candidate_deleted");
    expect(noteRefusal(staffline, { ...ok, candidateId: "c2" }, truth, BULK)).toBe("candidate_not_found");
    expect(noteRefusal(staffline, { ...ok, candidateId: "c9", text: "" }, truth, SINGLE)).toBe("candidate_not_found");
    expect(noteRefusal(staffline, { ...ok, text: "" }, truth, SINGLE)).toBe("text_missing");
    expect(noteRefusal(staffline, { ...ok, text: "x".repeat(2001) }, truth, SINGLE)).toBe("text_too_long");
  });
  it("reads the bounds from the declared write, and names a write that is not declared", () => {
    const loose = structuredClone(staffline);
    const input = loose.writes.find((w) => w.name === "createNote")!.inputs.find((i) => i.name === "note_text")!;
    input.required = false;
    input.maxLength = 5;
    expect(noteRefusal(loose, { ...ok, text: "" }, truth, SINGLE)).toBeNull();
    expect(noteRefusal(loose, { ...ok, text: "123456" }, truth, SINGLE)).toBe("text_too_long");
    expect(() => noteRefusal(staffline, ok, truth, { ...SINGLE, write: "sendFax" })).toThrow(/sendFax/);
  });
});

describe("carriesNote and landedNotes", () => {
  it("matches candidate, text and author, and counts only live notes created since before", () => {
    const other = { ...ok, author: "bo" };
    expect(carriesNote(note("n1", ok), ok)).toBe(true);
    expect(carriesNote(note("n1", other), ok)).toBe(false);
    expect(carriesNote(note("n1", { ...ok, text: "Called back" }), ok)).toBe(false);
    const before = snap([cand("c1")], [note("n1", ok)]);
    const after = snap([cand("c1")], [note("n1", ok), note("n2", ok), note("n3", ok, true), note("n4", other), note("n5", ok)]);
    expect(landedNotes(ok, before, after).map((r) => r.id)).toEqual(["n2", "n5"]);
  });
});
