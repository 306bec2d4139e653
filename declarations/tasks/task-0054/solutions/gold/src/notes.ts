import type { RosterlyRecord } from "./rosterly.ts";
import { wallToUtc } from "./time.ts";

/** Workers and notes carry no zone of their own: their stamps are on the organisation's clock. */
const ORG_ZONE = "Europe/London";

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

export function toCaseNote(note: RosterlyRecord): CaseNote {
  return {
    note_id: note.id,
    worker_id: String(note.worker_id),
    author: String(note.author),
    visibility: String(note.visibility),
    body: String(note.body),
    created_utc: wallToUtc(String(note.created_at), ORG_ZONE),
    updated_utc: wallToUtc(String(note.updated_at), ORG_ZONE),
  };
}
