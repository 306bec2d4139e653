/** The capability index: pools, their live people, their skills, built from what was read. */

export interface Membership {
  tid: string;
  ca: number;
  /** When the person was taken out of the pool, or is due to leave it (a removal booked ahead); null while no removal is set (the membership stays listed as history). */
  ra?: number | null;
}
export interface Pool {
  id: string;
  nm: string;
  mb?: Membership[];
  mb_truncated?: boolean;
}
export interface Skill {
  id: string;
  nm: string;
  ret: boolean;
}
export interface Endorsement {
  tid: string;
  sid: string;
  lvl: number;
}

export interface IndexRow {
  pool_id: string;
  name: string;
  people: number;
  talent_ids: string[];
  skills: string[];
  last_added_at: string | null;
}

const MIN_LEVEL = 3;

/** Skill names each person holds at level 3 or above, retired skills left out. */
export function skillsByPerson(skills: Skill[], endorsements: Endorsement[]): Map<string, Set<string>> {
  const byId = new Map(skills.map((s) => [s.id, s]));
  const out = new Map<string, Set<string>>();
  for (const e of endorsements) {
    const skill = byId.get(e.sid);
    if (!skill || skill.ret || e.lvl < MIN_LEVEL) continue;
    if (!out.has(e.tid)) out.set(e.tid, new Set());
    out.get(e.tid)!.add(skill.nm);
  }
  return out;
}

/**
 * One pool's row from its complete membership list, ended memberships included. Sourcewell stamps are whole seconds since
 * the epoch; `nowS` is Sourcewell's clock, and a removal stamped after it is booked ahead: that person is still in the pool.
 */
export function indexRow(pool: Pool, memberships: Membership[], alive: (tid: string) => boolean, held: Map<string, Set<string>>, nowS: number): IndexRow {
  const people = new Set<string>();
  let last: number | null = null;
  for (const m of memberships) {
    if (m.ra !== null && m.ra !== undefined && m.ra <= nowS) continue;
    if (!alive(m.tid)) continue;
    people.add(m.tid);
    if (last === null || m.ca > last) last = m.ca;
  }
  const talentIds = [...people].sort();
  const skills = [...new Set(talentIds.flatMap((t) => [...(held.get(t) ?? [])]))].sort();
  return { pool_id: pool.id, name: pool.nm, people: talentIds.length, talent_ids: talentIds, skills, last_added_at: last === null ? null : new Date(last * 1000).toISOString() };
}
