/**
 * @module shared/staffline-notes
 * Judging a note import into StaffLine from the vendor's side: whether
 * StaffLine takes a note (and, when not, the first reason the ticket names),
 * and which notes created during the run carry it. Each task maps its own
 * export rows onto a {@link NoteIntent}.
 */
import type { Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { Vendor } from "../../schema/vendor.ts";

/** A note an import asks StaffLine to write: on whose record, what text, by whom. */
export interface NoteIntent {
  candidateId: string;
  text: string;
  author: string;
}

/** Why StaffLine refuses a note, other than a deleted candidate (whose reason each ticket names). */
export type NoteRefusal = "candidate_not_found" | "text_missing" | "text_too_long";

export interface NoteWriteRule {
  /** The declared write whose `note_text` input bounds the text. */
  write: string;
  /** The reason a candidate StaffLine has deleted gets: its own, or the same as an unknown one. */
  deletedCandidate: "candidate_deleted" | "candidate_not_found";
}

/**
 * What StaffLine makes of a note against `truth`: the first reason it is
 * refused, in the tickets' order (candidate, then text), or null when it takes it.
 * The text's bounds are the declared write's, never a constant.
 */
export function noteRefusal<R extends NoteWriteRule>(vendor: Vendor, note: NoteIntent, truth: Snapshot, rule: R): R["deletedCandidate"] | NoteRefusal | null {
  const cand = (truth.entities.candidate ?? []).find((r) => r.id === note.candidateId);
  if (cand?.deleted) return rule.deletedCandidate;
  if (!cand) return "candidate_not_found";
  const write = vendor.writes.find((w) => w.name === rule.write);
  if (!write) throw new Error(`StaffLine declares no write ${rule.write}`);
  const input = write.inputs.find((i) => i.name === "note_text");
  if (!input) throw new Error(`${rule.write} takes no note_text`);
  if (note.text === "") return input.required ? "text_missing" : null;
  if (input.maxLength !== undefined && note.text.length > input.maxLength) return "text_too_long";
  return null;
}

/** Whether a StaffLine note carries the intended one: its candidate, text and author. */
export function carriesNote(r: SnapshotRecord, note: NoteIntent): boolean {
  return r.record.candidate_id === note.candidateId && r.record.note_text === note.text && r.record.author === note.author;
}

/** Live notes created since `before` (absent from it) that carry the intended one. */
export function landedNotes(note: NoteIntent, before: Snapshot, after: Snapshot): SnapshotRecord[] {
  const existed = new Set((before.entities.note ?? []).map((r) => r.id));
  return (after.entities.note ?? []).filter((r) => !r.deleted && !existed.has(r.id) && carriesNote(r, note));
}
