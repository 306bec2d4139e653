import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const EXPORT_DIR = join("input", "scorecards");

/** One scorecard of the Panelwise export. */
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

export function loadManifest(): Scorecard[] {
  return (JSON.parse(readFileSync(join(EXPORT_DIR, "manifest.json"), "utf8")) as { scorecards: Scorecard[] }).scorecards;
}

export function readScorecardFile(card: Scorecard): Uint8Array {
  return readFileSync(join(EXPORT_DIR, "files", card.file));
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const SIGNATURES: [type: string, bytes: number[]][] = [
  ["application/pdf", [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ["image/png", [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ["image/jpeg", [0xff, 0xd8, 0xff]],
];

/** The media type a file really has: its signature's when it has one, else what Panelwise recorded. */
export function mediaTypeOf(bytes: Uint8Array, recorded: string): string {
  for (const [type, sig] of SIGNATURES) if (sig.every((b, i) => bytes[i] === b)) return type;
  return recorded.split(";")[0].trim().toLowerCase();
}
