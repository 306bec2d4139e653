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

/** Minutes east of UTC that Dublin's clocks showed at the instant `ms`. */
function dublinOffsetMin(ms: number): number {
  const name = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Dublin", timeZoneName: "longOffset" }).formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  return m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** An ISO 8601 time as an instant; one without an offset is Dublin wall time (the panel's clock). */
export function decidedMs(text: string): number {
  if (/(?:Z|[+-]\d{2}:?\d{2})$/i.test(text)) return Date.parse(text);
  const wall = Date.parse(`${text}Z`);
  if (Number.isNaN(wall)) return wall;
  // Guess with the offset at the wall time read as UTC, then settle on the offset at the guess.
  const guess = wall - dublinOffsetMin(wall) * 60_000;
  return wall - dublinOffsetMin(guess) * 60_000;
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
