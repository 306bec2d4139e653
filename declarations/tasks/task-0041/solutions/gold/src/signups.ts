import type { Profile } from "./sourcewell.ts";

/** One row of the agency's file. */
export interface Signup {
  sourcewell_id: string;
  email: string;
  mobile: string;
  role: string;
  zone: string;
  signed_up: string;
}

/** An id as Sourcewell writes it (`tl_` and five digits) from the ways the agency copies it. */
export function canonicalId(typed: string): string | null {
  const m = /^\s*(?:tl)?[\s_-]*(\d{1,5})\s*$/i.exec(typed);
  return m ? `tl_${m[1].padStart(5, "0")}` : null;
}

const digits = (s: string | null | undefined) => (s ?? "").replace(/\D/g, "");

/** The live profile a row names: by id when the agency gave one, else by email, else by mobile. */
export function profileOf(s: Signup, profiles: Profile[]): Profile | null {
  if (s.sourcewell_id.trim()) {
    const id = canonicalId(s.sourcewell_id);
    return profiles.find((p) => p.id === id) ?? null;
  }
  const email = s.email.trim().toLowerCase();
  if (email) return profiles.find((p) => (p.em ?? "").toLowerCase() === email) ?? null;
  const mobile = digits(s.mobile);
  if (mobile) return profiles.find((p) => digits(p.ph) === mobile) ?? null;
  return null;
}

/** A CrewCall role from the way the agency writes it ("Forklift operator" is `forklift_operator`). */
export const roleOf = (typed: string) =>
  typed
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");

/**
 * Minutes since the epoch of a `signed_up` stamp as the agency types it (`2025-01-06 09:12`, and
 * hours before ten often without the zero: `2025-01-07 8:20`), for ordering: the text does not sort.
 */
export function signedUpAt(s: Signup): number {
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})[T\s]+(\d{1,2}):(\d{2})\s*$/.exec(s.signed_up);
  if (!m) throw new Error(`signed_up ${JSON.stringify(s.signed_up)} is not a date and time`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) / 60_000;
}
