import type { AppRow } from "./state.ts";

export interface Job {
  id: number;
  companyId: number;
  title: string;
  status: string;
}

export const HEADER = "job_id,company,title,status,applications,active,placed,disqualified,referrals,last_activity_at";

/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The rollup's lines, one per job, by job id, as the ticket defines the columns. */
export function rollupLines(jobs: Job[], companies: Map<number, string>, apps: AppRow[], sources: Map<number, string>): string[] {
  const byJob = new Map<number, AppRow[]>();
  for (const a of apps) byJob.set(a.jobId, [...(byJob.get(a.jobId) ?? []), a]);
  return [...jobs]
    .sort((a, b) => a.id - b.id)
    .map((j) => {
      const mine = byJob.get(j.id) ?? [];
      const disqualified = mine.filter((a) => a.disqualified).length;
      const placed = mine.filter((a) => !a.disqualified && a.stage === "placed").length;
      const referrals = mine.filter((a) => sources.get(a.candidateId) === "referral").length;
      const last = mine.length ? iso(Math.max(...mine.map((a) => a.updatedAt))) : "";
      return [
        String(j.id),
        companies.get(j.companyId) ?? "",
        j.title,
        j.status,
        String(mine.length),
        String(mine.length - placed - disqualified),
        String(placed),
        String(disqualified),
        String(referrals),
        last,
      ]
        .map(field)
        .join(",");
    });
}
