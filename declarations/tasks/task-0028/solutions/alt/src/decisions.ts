import { readFileSync } from "node:fs";

/** One row of the warehouse export. */
export interface Decision {
  applicationId: number;
  stage: string;
  /** Null when the row leaves it empty: the panel ruled on the stage only. */
  disqualified: boolean | null;
  decidedAt: string;
  /** `decidedAt` as an instant (epoch ms). */
  decidedMs: number;
  decidedBy: string;
}

/** 01:00 UTC on the last Sunday of a month: when Irish summer time starts (March) and ends (October). */
function lastSunday(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
}

/** An ISO 8601 time as an instant; one without an offset is Dublin wall time (IST, UTC+1, in summer; GMT in winter). */
export function decidedMs(text: string): number {
  if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) return Date.parse(text);
  const wall = Date.parse(`${text}Z`);
  if (Number.isNaN(wall)) return wall;
  const year = new Date(wall).getUTCFullYear();
  const ist = wall - 3_600_000;
  return ist >= lastSunday(year, 2) && ist < lastSunday(year, 9) ? ist : wall;
}

/** The export's rows, in file order (a plain CSV: a header line, no quoted fields). */
export function loadDecisions(path = "input/screening_decisions.csv"): Decision[] {
  const [, ...lines] = readFileSync(path, "utf8").trim().split(/\r?\n/);
  return lines.map((line, i) => {
    const [id, stage, disqualified, decidedAt, decidedBy] = line.split(",").map((f) => f.trim());
    const ms = decidedMs(decidedAt);
    if (!/^\d+$/.test(id) || Number.isNaN(ms) || !["true", "false", ""].includes(disqualified)) throw new Error(`${path} line ${i + 2}: cannot read ${JSON.stringify(line)}`);
    return { applicationId: Number(id), stage, disqualified: disqualified === "" ? null : disqualified === "true", decidedAt, decidedMs: ms, decidedBy };
  });
}
