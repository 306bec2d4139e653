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

/**
 * The copies one link still needs: every note on one side whose copy text is not yet on the
 * other side, signed by the sync.
 */
export function pendingCopies(link: Link, notes: PlaceMintNote[], activities: Activity[]): Pending[] {
  const onPlacement = notes.filter((n) => n.placement_id === link.placement_id && !n.deleted);
  const timeline = activities.filter((a) => String(a.candidateId) === link.candidate_id && a.type === "note");
  const copiedToCrm = new Set(timeline.filter((a) => a.loggedBy === SYNC).map((a) => a.summary));
  const copiedToBook = new Set(onPlacement.filter((n) => n.author === SYNC).map((n) => n.body));
  const out: Pending[] = [];
  for (const n of onPlacement) {
    const text = toRecruitOS(n);
    if (!copiedToCrm.has(text)) out.push({ direction: "placemint_to_recruitos", link, source: n.id, text });
  }
  for (const a of timeline) {
    const text = toPlaceMint(a);
    if (!copiedToBook.has(text)) out.push({ direction: "recruitos_to_placemint", link, source: a.id, text });
  }
  return out;
}
