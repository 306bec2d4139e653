/** The notes rule of the ticket: what a copy says, and which notes still need one. */

export const SYNC = "Placement sync";

export interface Link {
  candidate_id: string;
  placement_id: string;
}

export interface PlaceMintNote {
  id: string;
  placement_id: string;
  body: string;
  author: string | null;
  visibility?: string | null;
  deleted?: boolean;
}

export interface Activity {
  id: string;
  candidateId: number | string;
  type: string;
  summary: string;
  loggedBy: string | null;
}

export type Direction = "placemint_to_recruitos" | "recruitos_to_placemint";

/** A copy still to write. */
export interface Pending {
  direction: Direction;
  link: Link;
  source: string;
  text: string;
}

export const toRecruitOS = (n: PlaceMintNote) => `PlaceMint note by ${n.author}: ${n.body}`;
export const toPlaceMint = (a: Activity) => `RecruitOS note by ${a.loggedBy}: ${a.summary}`;

/** What earlier runs wrote, kept under OUTPUT_DIR: each source note's copy. */
export interface Ledger {
  copies: Record<string, string>;
}

/**
 * The copies one link still needs, from the ledger rather than from the notes' text: a note the
 * ledger names as a copy was written by the sync and is never copied back; a note the ledger
 * names as a source already has its copy.
 */
export function pendingCopies(link: Link, notes: PlaceMintNote[], activities: Activity[], ledger: Ledger): Pending[] {
  const written = new Set(Object.values(ledger.copies));
  const done = (id: string) => id in ledger.copies || written.has(id);
  const out: Pending[] = [];
  for (const n of notes) {
    if (n.placement_id !== link.placement_id || n.deleted || done(n.id)) continue;
    out.push({ direction: "placemint_to_recruitos", link, source: n.id, text: toRecruitOS(n) });
  }
  for (const a of activities) {
    if (String(a.candidateId) !== link.candidate_id || a.type !== "note" || done(a.id)) continue;
    out.push({ direction: "recruitos_to_placemint", link, source: a.id, text: toPlaceMint(a) });
  }
  return out;
}
