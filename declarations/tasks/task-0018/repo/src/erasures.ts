import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { Warehouse } from "./warehouse.ts";

/** Where the privacy team drops its export of erasure requests. */
export const REQUESTS_FILE = "input/erasure-requests.csv";

/** One line of the privacy tool's export. */
export interface ErasureRequest {
  request_id: string;
  candidate_id: string;
}

export type ErasureStatus = "erased" | "not_erased" | "unknown_candidate";

/** The requests of the export (a header line, then one request per line; no quoted fields). */
export function readRequests(file = REQUESTS_FILE): ErasureRequest[] {
  const [header, ...lines] = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  const columns = header.split(",").map((c) => c.trim());
  return lines.map((line) => {
    const cells = line.split(",");
    const cell = (name: string) => cells[columns.indexOf(name)] ?? "";
    return { request_id: cell("request_id").trim(), candidate_id: cell("candidate_id").trim() };
  });
}

export function writeReport(dir: string, entries: { request_id: string; candidate_id: string; status: ErasureStatus }[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "erasure_report.json"), JSON.stringify(entries, null, 2));
}

/**
 * The erasure audit for the DPO. The warehouse mirrors TalentLoop, removals
 * included, so it answers for TalentLoop without a round trip per request.
 */
export async function erasures(config: Config): Promise<void> {
  const warehouse = new Warehouse(config.outputDir);
  const report = readRequests().map(({ request_id, candidate_id }) => {
    const row = warehouse.rows.candidate.get(candidate_id);
    const status: ErasureStatus = !row ? "unknown_candidate" : row.is_deleted ? "erased" : "not_erased";
    return { request_id, candidate_id, status };
  });
  writeReport(config.outputDir, report);
  console.error(`erasures: ${report.filter((r) => r.status === "erased").length} of ${report.length} requests erased in TalentLoop`);
}
