import { readFileSync } from "node:fs";

/** One starter of the HRIS export. */
export interface Starter {
  ref: string;
  template_id: string;
  job_title: string;
  department: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  auth_method: string;
}

export function loadStarters(path = "input/new_hires.json"): Starter[] {
  const file = JSON.parse(readFileSync(path, "utf8")) as { hires: Starter[] };
  return file.hires;
}
