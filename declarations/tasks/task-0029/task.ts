import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { csvRows } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";

export const ROLE = "crm";
const ROLLUP = "requisition_rollup.csv";
const HEADER = ["job_id", "company", "title", "status", "applications", "active", "placed", "disqualified", "referrals", "last_activity_at"];
/** The two nights: the first run, then the next after two days of changes (deletions among them). */
export const NIGHTS = [
  { label: "night1", checkpoint: 1 },
  { label: "night2", checkpoint: 3 },
] as const;
/**
 * Faults the second night arms (declared in declarations/vendors/recruitos.ts): the app's tokens
 * are revoked a few calls in, and jobs opened while the jobs list is read shift it after its first
 * page (an offset crawl sees some jobs twice and misses as many).
 */
export const SECOND_NIGHT_FAULTS = ["ros-app-tokens-revoked", "ros-jobs-drift"];
const EXPORTS_PATH = "/api/v3/reporting/exports";

const live = (s: Snapshot, entity: string) => (s.entities[entity] ?? []).filter((r) => !r.deleted);

/** The rollup the ticket defines, from RecruitOS's ground truth at a snapshot: job id -> row. */
function expectedRollup(s: Snapshot): Map<string, Record<string, string>> {
  const companies = new Map(live(s, "company").map((c) => [c.id, String(c.record.name)]));
  const sources = new Map(live(s, "candidate").map((c) => [c.id, String(c.record.source)]));
  const byJob = new Map<string, Record<string, unknown>[]>();
  for (const a of live(s, "application")) byJob.set(String(a.record.jobId), [...(byJob.get(String(a.record.jobId)) ?? []), a.record]);
  const out = new Map<string, Record<string, string>>();
  for (const j of live(s, "job")) {
    const mine = byJob.get(j.id) ?? [];
    const disqualified = mine.filter((a) => a.disqualified === true).length;
    const placed = mine.filter((a) => a.disqualified !== true && a.stage === "placed").length;
    out.set(j.id, {
      job_id: j.id,
      company: companies.get(String(j.record.companyId)) ?? "",
      title: String(j.record.title),
      status: String(j.record.status),
      applications: String(mine.length),
      active: String(mine.length - placed - disqualified),
      placed: String(placed),
      disqualified: String(disqualified),
      referrals: String(mine.filter((a) => sources.get(String(a.candidateId)) === "referral").length),
      last_activity_at: mine.length ? new Date(Math.max(...mine.map((a) => Number(a.updatedAt)))).toISOString() : "",
    });
  }
  return out;
}

/** Why a rollup file is not the rollup of a snapshot. */
function rollupProblems(run: ConnectorRun | undefined, s: Snapshot): string[] {
  const want = expectedRollup(s);
  const rows = objects(outputRows<Record<string, unknown>>(run, ROLLUP));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const id = String(r.job_id);
    const exp = want.get(id);
    if (!exp) {
      problems.push(`${id}: not a job RecruitOS holds`);
      continue;
    }
    if (seen.has(id)) problems.push(`${id}: twice`);
    seen.add(id);
    const off = HEADER.filter((h) => {
      if (h !== "last_activity_at") return String(r[h] ?? "") !== exp[h];
      const got = String(r[h] ?? "");
      return exp[h] === "" ? got !== "" : !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(got) || Date.parse(got) !== Date.parse(exp[h]);
    });
    if (off.length) problems.push(`${id} (${off.map((h) => `${h} ${JSON.stringify(r[h])}, want ${JSON.stringify(exp[h])}`).join("; ")})`);
  }
  const missing = [...want.keys()].filter((id) => !seen.has(id));
  if (missing.length) problems.push(`${missing.length} jobs missing (${fewIds(missing)})`);
  if (!rows.every((r, i) => i === 0 || Number(rows[i - 1].job_id) < Number(r.job_id))) problems.push("not sorted by job_id");
  return problems;
}

const EXIT = { ticket: "`rollup` exits `0` when it has written the rollup" };
const TRUE_ROLLUP = { ticket: "Each run writes the rollup as RecruitOS stands at that run." };

function judge(e: ScenarioEvidence, c: CheckRecorder): void {
  for (const [i, night] of NIGHTS.entries()) {
    const run = byLabel(e, night.label);
    if (!plumbing(c, `${night.label}_exit_ok`, run, [ROLLUP], EXIT)) continue;
    const problems = rollupProblems(run, e.snapshots[night.label][ROLE]);
    c.check(`${night.label}_rollup_true`, !problems.length, {
      basis: TRUE_ROLLUP,
      pass: 2,
      mandatory: true,
      level: i === 0 ? "l1" : "l3",
      detail: problems.length ? `${problems.length} problems: ${fewIds(problems)}` : `${expectedRollup(e.snapshots[night.label][ROLE]).size} jobs, each row as RecruitOS stands`,
    });
  }

  const requests = e.requests[ROLE] ?? [];
  const listed = requests.filter((r) => r.method === "GET" && /^\/api\/v3\/(applications|candidates)$/.test(r.path));
  c.check("applications_and_candidates_by_export", !listed.length, {
    basis: { ticket: "Read applications and candidates through RecruitOS's export jobs" },
    level: "l2",
    detail: listed.length ? `${listed.length} reads of the billed lists (first ${listed[0].path}, #${listed[0].seq})` : "applications and candidates read through exports only",
  });

  // The last epoch is the second night's (the harness opens one before the drive, the drive one per night).
  const second = e.epochs[ROLE]?.at(-1);
  const nightly = requests.filter((r) => r.epoch === second && r.method === "POST" && r.path === EXPORTS_PATH);
  if (nightly.length) {
    const full = nightly.filter((r) => (r.body as Record<string, unknown> | null)?.modifiedSince === undefined);
    c.check("second_night_exports_changes_only", !full.length, {
      basis: { ticket: "after that, export only what changed since the previous run" },
      level: "l2",
      detail: full.length ? `${full.length} of ${nightly.length} exports of the second night exported everything` : `${nightly.length} exports, each of what changed since the previous run`,
    });
  }
}

export default defineTask({
  id: "task-0029",
  title: "Kestrel requisition rollup: rebuilt from RecruitOS's export jobs after the Reporting Mart is switched off, nightly by changes, deletions included",
  kind: "migrate",
  // Three times the default desk: the jobs list runs over more than one page.
  roles: { [ROLE]: { vendor: "recruitos", checkpoint: NIGHTS[0].checkpoint, scale: 3 } },
  // Seed 90210: among the candidates deleted before the second night are referrals whose
  // applications RecruitOS still holds, so a rollup that keeps a deleted candidate's source
  // counts referrals it must not (seed 7's deleted candidates were none of them referrals).
  seed: 90210,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "mart_rollup_api_cutover",
  entry: { command: ["node", "src/main.ts"], subcommands: ["rollup"] },
  outputs: {
    [ROLLUP]: csvRows(
      HEADER,
      z.looseObject({
        job_id: z.string().regex(/^\d+$/),
        company: z.string(),
        title: z.string(),
        status: z.string(),
        applications: z.string().regex(/^\d+$/),
        active: z.string().regex(/^\d+$/),
        placed: z.string().regex(/^\d+$/),
        disqualified: z.string().regex(/^\d+$/),
        referrals: z.string().regex(/^\d+$/),
        last_activity_at: z.string(),
      }),
    ),
  },
  timeLimitS: 60,
  scenarios: [
    {
      // The first night exports everything; two days later (candidates, applications and jobs
      // deleted, applications moved and added, the app's tokens revoked a few calls in, the jobs
      // list shifting under a crawl) the next night must come out right from the changes alone.
      name: "two_nights",
      judge: (e, c) => judge(e, c),
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs",
    token_reused_not_reminted: "reuse access tokens while they are valid",
  },
});
