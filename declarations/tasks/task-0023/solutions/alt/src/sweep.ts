/** The sweep's business rule (PROBLEM.md, "The rule"). */

export interface Placement {
  id: string;
  client_id: string;
  status: string;
  deleted: boolean;
}

export interface Note {
  id: string;
  placement_id: string;
  created_at: string;
  deleted: boolean;
}

export const CUT_OFF = Date.parse("2025-01-01T00:00:00Z");

export const inScope = (p: Placement) => !p.deleted && (p.status === "confirmed" || p.status === "active");

/**
 * Each placement's newest live note. The feed comes in no particular order, so this is a
 * maximum over the whole feed: latest `created_at`, then the greater id.
 */
export function findLastContacts(notes: Note[]): Map<string, Note> {
  const last = new Map<string, Note>();
  for (const n of notes) {
    if (n.deleted) continue;
    const have = last.get(n.placement_id);
    const t = Date.parse(n.created_at);
    if (!have || t > Date.parse(have.created_at) || (t === Date.parse(have.created_at) && n.id > have.id)) last.set(n.placement_id, n);
  }
  return last;
}

export const isStalled = (last: Note | null) => last === null || Date.parse(last.created_at) < CUT_OFF;

export const chaseBody = (last: Note | null) => (last ? `Chase-up: no contact since ${last.created_at}.` : "Chase-up: no contact on record.");
