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

/** Offset of Europe/London at an instant, as `+01:00` or `+00:00`. */
function londonOffset(ms: number): string {
  const name = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", timeZoneName: "longOffset" }).formatToParts(new Date(ms)).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-]\d{2}:\d{2})?/.exec(name);
  return m?.[1] ?? "+00:00";
}

/** A London wall-clock stamp with the offset in force then (the stamp read as UTC is at most an hour off, so the offset an hour either side settles it). */
function withOffset(stamp: unknown): string {
  const wall = String(stamp);
  const asUtc = Date.parse(`${wall}Z`);
  for (const probe of [asUtc - 3_600_000, asUtc]) {
    const off = londonOffset(probe);
    if (Date.parse(`${wall}${off}`) === probe || londonOffset(Date.parse(`${wall}${off}`)) === off) return `${wall}${off}`;
  }
  return `${wall}${londonOffset(asUtc)}`;
}

export function toCaseNote(note: RosterlyRecord): CaseNote {
  return {
    note_id: note.id,
    worker_id: String(note.worker_id),
    author: String(note.author),
    visibility: String(note.visibility),
    body: String(note.body),
    created_utc: withOffset(note.created_at),
    updated_utc: withOffset(note.updated_at),
  };
}
