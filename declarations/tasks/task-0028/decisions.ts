/**
 * The warehouse export the starter ships (`repo/input/screening_decisions.csv`), as the judge
 * reads it: the grader bundles no file reads, so the text is kept here, and
 * test/node/task-0028-decisions.test.ts holds it equal to the file.
 */
export const DECISIONS_CSV = `application_id,stage,disqualified,decided_at,decided_by
5000128,offer,false,2025-10-07T10:50:00Z,niamh.gallagher
5000128,submitted,true,2025-10-07T07:05:00Z,tomasz.nowak
5000116,sourced,false,2025-10-07T08:42:00Z,omar.haddad
5000084,placed,false,2025-10-07T09:10:00Z,tomasz.nowak
5000157,client_interview,false,2025-10-07T08:15:00Z,bea.lindgren
5000301,client_interview,true,2025-10-07T09:20:00Z,adaeze.okoro
5000026,placed,false,2025-10-07T08:30:00Z,omar.haddad
5000225,submitted,true,2025-10-07T11:03:00Z,adaeze.okoro
5000069,submitted,false,2025-10-07T08:07:00Z,omar.haddad
5000299,sourced,false,2025-10-07T09:17:00,omar.haddad
5000021,offer,false,2025-10-07T08:45:00Z,tomasz.nowak
5000411,contacted,false,2025-10-07T08:45:00,niamh.gallagher
5000326,sourced,true,2025-10-07T09:24:00Z,bea.lindgren
5000060,client_interview,false,2025-10-07T07:00:00Z,niamh.gallagher
5000014,contacted,false,2025-10-07T09:40:00Z,omar.haddad
5000999,submitted,false,2025-10-07T10:10:00Z,omar.haddad
5000075,placed,false,2025-10-07T09:00:00Z,niamh.gallagher
5000389,sourced,true,2025-10-07T11:38:00Z,adaeze.okoro
5000122,submitted,false,2025-10-07T09:49:00Z,bea.lindgren
5000063,client_interview,,2025-10-07T09:55:00Z,bea.lindgren
5000260,offer,false,2025-10-07T07:20:00,tomasz.nowak
5000211,offer,true,2025-10-07T10:56:00Z,tomasz.nowak
5000154,submitted,true,2025-10-07T10:05:00Z,adaeze.okoro
5000092,placed,false,2025-10-07T09:40:00Z,omar.haddad
5000114,interview,false,2025-10-07T07:35:00Z,niamh.gallagher
5000098,offer,false,2025-10-07T11:28:00Z,adaeze.okoro
5000041,contacted,,2025-10-07T11:12:00Z,adaeze.okoro
5000074,offer,false,2025-10-07T05:30:00Z,bea.lindgren
5000250,submitted,false,2025-10-07T07:10:00Z,niamh.gallagher
5000348,client_interview,false,2025-10-07T10:31:00Z,tomasz.nowak
5000078,contacted,true,2025-10-07T10:21:00Z,tomasz.nowak
5000070,placed,false,2025-10-07T09:14:00Z,bea.lindgren
5000014,offer,true,2025-10-07T10:20:00,niamh.gallagher
`;

/** One decision row. */
export interface Decision {
  application_id: number;
  stage: string;
  /** Null when the row leaves it empty: the panel ruled on the stage only. */
  disqualified: boolean | null;
  decided_at: string;
  /** `decided_at` as epoch milliseconds (a time without an offset is Dublin time). */
  decided_ms: number;
}

/** Whether an ISO 8601 time names its offset (`Z` or `±hh:mm`). */
export const hasOffset = (text: string): boolean => /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text);

/** Last Sunday of a month (UTC date), at 01:00 UTC: where EU summer time starts (March) and ends (October). */
function lastSundayAt1Utc(year: number, month: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0));
  return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1);
}

/**
 * An ISO 8601 time as epoch milliseconds. With an offset (or `Z`) it is that instant; without one it
 * is Dublin wall time: UTC+1 during EU summer time (last Sunday of March to last Sunday of October,
 * 01:00 UTC), UTC otherwise.
 */
export function decidedMs(text: string): number {
  if (hasOffset(text)) return Date.parse(text);
  const asUtc = Date.parse(`${text}Z`);
  const year = new Date(asUtc).getUTCFullYear();
  const summer = (at: number) => at >= lastSundayAt1Utc(year, 2) && at < lastSundayAt1Utc(year, 9);
  // The wall time read as UTC+1 is the instant if that instant falls in summer time.
  return summer(asUtc - 3_600_000) ? asUtc - 3_600_000 : asUtc;
}

/** The rows of the export (a header line, no quoted fields). */
export function parseDecisions(text: string): Decision[] {
  const [, ...lines] = text.trim().split(/\r?\n/);
  return lines.map((line) => {
    const [id, stage, disqualified, decidedAt] = line.split(",");
    return { application_id: Number(id), stage, disqualified: disqualified === "" ? null : disqualified === "true", decided_at: decidedAt, decided_ms: decidedMs(decidedAt) };
  });
}
