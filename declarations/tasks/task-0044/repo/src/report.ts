import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One row of `topup_report.csv`. */
export interface ReportRow {
  line: number;
  gig_id: string;
  worker_id: string;
  assignment_id: string;
  status: "booked" | "unknown_worker";
}

export function writeReport(outputDir: string, rows: ReportRow[]): void {
  mkdirSync(outputDir, { recursive: true });
  const lines = ["line,gig_id,worker_id,assignment_id,status", ...rows.map((r) => [r.line, r.gig_id, r.worker_id, r.assignment_id, r.status].join(","))];
  writeFileSync(join(outputDir, "topup_report.csv"), `${lines.join("\n")}\n`);
}
