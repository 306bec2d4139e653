/** The roster rule (PROBLEM.md, "The rule"). */

export interface Link {
  application_id: string;
  placement_id: string;
}

export interface Application {
  id: string;
  candidate_id: string;
  stage: string;
}

export interface Placement {
  id: string;
  status: string;
  deleted: boolean;
}

export type Correction = "staffline_note" | "placemint_confirm";
export type Excluded = "application_unknown" | "application_deleted" | "candidate_deleted" | "placement_unknown" | "placement_deleted";

export interface Row {
  application_id: string;
  placement_id: string;
  candidate_id: string | null;
  staffline_stage: string | null;
  placemint_status: string | null;
  authority: "staffline" | "placemint" | null;
  roster_stage: string | null;
  correction: Correction | null;
  excluded: Excluded | null;
}

const BOOKED = new Set(["confirmed", "active", "ended"]);

/** The digits of each system's ids: StaffLine's `app_` and five, PlaceMint's `plc_` and six. */
const WIDTH: Record<string, number> = { app_: 5, plc_: 6 };

/**
 * An id from the hand-kept bridge sheet as the systems spell it: no padding spaces, lower case,
 * the digits zero-filled to the system's width (a sheet's `APP_00047` or `app_112` is
 * StaffLine's `app_00047` or `app_00112`).
 */
export function systemId(raw: string): string {
  const id = raw.trim().toLowerCase();
  const m = /^([a-z]+_)(\d+)$/.exec(id);
  return m && WIDTH[m[1]] ? `${m[1]}${m[2].padStart(WIDTH[m[1]], "0")}` : id;
}

/** The sheet's links with their ids as the systems spell them, a link typed twice kept once. */
export function distinctLinks(rows: Link[]): Link[] {
  const links = new Map<string, Link>();
  for (const r of rows) {
    const link = { application_id: systemId(r.application_id), placement_id: systemId(r.placement_id) };
    links.set(`${link.application_id}|${link.placement_id}`, link);
  }
  return [...links.values()];
}

export const noteText = (r: Row) => `PlaceMint placement ${r.placement_id} is ${r.placemint_status}; application ${r.application_id} should be placed.`;

/**
 * One roster row per link. StaffLine lists only live applications and candidates (deletes
 * are in its tombstones); PlaceMint lists deleted placements with `deleted: true`.
 */
export function roster(links: Link[], apps: Map<string, Application>, deletedApps: Set<string>, deletedCandidates: Set<string>, placements: Map<string, Placement>): Row[] {
  return [...links]
    .sort((a, b) => (a.application_id < b.application_id ? -1 : a.application_id > b.application_id ? 1 : a.placement_id < b.placement_id ? -1 : 1))
    .map((l): Row => {
      const a = apps.get(l.application_id);
      const p = placements.get(l.placement_id);
      const excluded: Excluded | null = deletedApps.has(l.application_id)
        ? "application_deleted"
        : !a
          ? "application_unknown"
          : deletedCandidates.has(a.candidate_id)
            ? "candidate_deleted"
            : !p
              ? "placement_unknown"
              : p.deleted
                ? "placement_deleted"
                : null;
      if (excluded || !a || !p) return { ...l, candidate_id: null, staffline_stage: null, placemint_status: null, authority: null, roster_stage: null, correction: null, excluded };
      const booked = BOOKED.has(p.status);
      return {
        ...l,
        candidate_id: a.candidate_id,
        staffline_stage: a.stage,
        placemint_status: p.status,
        authority: booked ? "placemint" : "staffline",
        roster_stage: booked ? p.status : a.stage,
        correction: booked && a.stage !== "placed" ? "staffline_note" : !booked && a.stage === "placed" ? "placemint_confirm" : null,
        excluded: null,
      };
    });
}
