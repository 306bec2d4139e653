import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of parity_report.csv. */
export interface ReportRow {
  applicationId: number;
  outcome: "repaired" | "in_sync" | "superseded" | "missing" | "refused";
  stage: string | null;
  disqualified: boolean | null;
  detail: string;
}

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

export function writeReport(outputDir: string, rows: ReportRow[]): void {
  const sorted = [...rows].sort((a, b) => a.applicationId - b.applicationId);
  const lines = sorted.map((r) => [String(r.applicationId), r.outcome, r.stage ?? "", r.disqualified === null ? "" : String(r.disqualified), r.detail].map(field).join(","));
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, "parity_report.csv"), `${["application_id,outcome,stage,disqualified,detail", ...lines].join("\n")}\n`);
}
