import { readFileSync } from "node:fs";

/** One hire of the Workday export. */
export interface Hire {
  client_ref: string;
  legal_first_name: string;
  legal_last_name: string;
  personal_email: string;
  mobile: string | null;
  job_title: string;
  work_location: string;
  onboarding_note: string;
}

export interface Batch {
  batch: string;
  note_author: string;
  hires: Hire[];
}

export function loadBatch(path: string): Batch {
  const raw = JSON.parse(readFileSync(path, "utf8")) as Batch;
  if (!raw || typeof raw.batch !== "string" || !Array.isArray(raw.hires)) throw new Error(`${path} is not a new-hire batch`);
  const refs = new Set<string>();
  for (const h of raw.hires) {
    if (refs.has(h.client_ref)) throw new Error(`${path} lists ${h.client_ref} twice`);
    refs.add(h.client_ref);
  }
  return raw;
}

/** The createCandidate body for a hire: the ticket's field mapping, phone left out when there is none. */
export function candidateInput(h: Hire): Record<string, string> {
  const body: Record<string, string> = {
    given_name: h.legal_first_name,
    family_name: h.legal_last_name,
    email: h.personal_email,
    current_title: h.job_title,
    location: h.work_location,
  };
  if (h.mobile) body.phone = h.mobile;
  return body;
}
