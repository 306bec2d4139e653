import { readFileSync } from "node:fs";

/** One row of the warehouse export. */
export interface Decision {
  applicationId: number;
  stage: string;
  disqualified: boolean;
  decidedAt: string;
  decidedBy: string;
}

/** The export's rows, in file order (a plain CSV: a header line, no quoted fields). */
export function loadDecisions(path = "input/screening_decisions.csv"): Decision[] {
  const [, ...lines] = readFileSync(path, "utf8").trim().split(/\r?\n/);
  return lines.map((line) => {
    const [id, stage, disqualified, decidedAt, decidedBy] = line.split(",");
    return { applicationId: Number(id), stage, disqualified: disqualified === "true", decidedAt, decidedBy };
  });
}
