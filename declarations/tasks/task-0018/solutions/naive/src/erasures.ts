import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { TalentLoopClient } from "./talentloop-client.ts";
import { Warehouse } from "./warehouse.ts";

/** Where the privacy team drops its export of erasure requests. */
export const REQUESTS_FILE = "input/erasure-requests.csv";

/** One line of the privacy tool's export. */
export interface ErasureRequest {
  request_id: string;
  candidate_id: string;
}

export type ErasureStatus = "erased" | "not_erased" | "unknown_candidate";

/**
 * The requests of the export (a header line, then one request per line; no
 * quoted fields). Ids are copied by hand from TalentLoop's screens, so they
 * are trimmed and lower-cased to TalentLoop's spelling (`can_000123`).
 */
export function readRequests(file = REQUESTS_FILE): ErasureRequest[] {
  const [header, ...lines] = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  const columns = header.split(",").map((c) => c.trim());
  return lines.map((line) => {
    const cells = line.split(",");
    const cell = (name: string) => cells[columns.indexOf(name)] ?? "";
    return { request_id: cell("request_id").trim(), candidate_id: cell("candidate_id").trim().toLowerCase() };
  });
}

export function writeReport(dir: string, entries: { request_id: string; candidate_id: string; status: ErasureStatus }[]): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "erasure_report.json"), JSON.stringify(entries, null, 2));
}

/**
 * The erasure audit for the DPO: TalentLoop's own answer for each requested
 * candidate, read now (`deleted: true`: erased; otherwise still held; 404:
 * never a TalentLoop candidate). An erased candidate the warehouse holds is
 * removed from it at once.
 */
export async function erasures(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const warehouse = new Warehouse(config.outputDir);
  const report: { request_id: string; candidate_id: string; status: ErasureStatus }[] = [];
  for (const { request_id, candidate_id } of readRequests()) {
    const { status, body } = await client.get(`/v1/candidates/${encodeURIComponent(candidate_id)}`);
    const record = (body ?? {}) as Record<string, unknown>;
    const verdict: ErasureStatus = status === 404 ? "unknown_candidate" : record.deleted === true ? "erased" : "not_erased";
    if (verdict === "erased" && warehouse.rows.candidate.has(candidate_id)) warehouse.remove("candidate", candidate_id);
    report.push({ request_id, candidate_id, status: verdict });
  }
  warehouse.save();
  writeReport(config.outputDir, report);
  console.error(`erasures: ${report.filter((r) => r.status === "erased").length} of ${report.length} requests erased in TalentLoop`);
}
