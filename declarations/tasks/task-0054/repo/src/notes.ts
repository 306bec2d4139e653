import type { RosterlyRecord } from "./rosterly.ts";

/** A note as the HR case system imports it. */
export interface CaseNote {
  note_id: string;
  worker_id: string;
  author: string;
  visibility: string;
  body: string;
  created_utc: string;
  updated_utc: string;
}

/** Rosterly stamps are UTC; the case system wants the `Z`. */
function utc(stamp: unknown): string {
  return `${String(stamp)}Z`;
}

export function toCaseNote(note: RosterlyRecord): CaseNote {
  return {
    note_id: note.id,
    worker_id: String(note.worker_id),
    author: String(note.author),
    visibility: String(note.visibility),
    body: String(note.body),
    created_utc: utc(note.created_at),
    updated_utc: utc(note.updated_at),
  };
}
