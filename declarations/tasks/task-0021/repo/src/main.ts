// Panelwise scorecards into TalentLoop. Command: deliver.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One scorecard of the Panelwise export, as `input/scorecards/manifest.json` lists it. */
export interface Scorecard {
  scorecard_id: string;
  talentloop_candidate_id: string | null;
  candidate_email: string;
  stage: string;
  interviewer: string;
  recommendation: string;
  summary: string;
  file: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
}

export const EXPORT_DIR = join("input", "scorecards");

export function loadManifest(): Scorecard[] {
  const manifest = JSON.parse(readFileSync(join(EXPORT_DIR, "manifest.json"), "utf8")) as { scorecards: Scorecard[] };
  return manifest.scorecards;
}

const command = process.argv[2];

if (command !== "deliver") {
  console.error("usage: node src/main.ts deliver");
  process.exit(2);
}

console.error(`${command}: not implemented yet (${loadManifest().length} scorecards waiting)`);
process.exit(1);
