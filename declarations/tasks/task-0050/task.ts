import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { byLabel, fewIds, outputRows } from "../shared/judging.ts";

export const ROLE = "crew";
const FILE = "census.json";
/** Faults (declared in declarations/vendors/crewcall.ts): the roster re-ranked under the first run's crawl; the next night's first page of workers answers 502 once. */
export const RERANKED = "cc-census-roster-reranked";
export const WORKERS_502 = "cc-census-workers-502-first-page";

const Cell = z.object({ onboarding_status: z.string(), primary_role: z.string(), workers: z.number() });
type Cell = z.infer<typeof Cell>;

const BASES = {
  census: { ticket: "After every run `census.json` counts CrewCall's roster as it is when the run ends: each worker number once" },
  sorted: { ticket: "sorted by `onboarding_status`, then by `primary_role`" },
  changesOnly: { ticket: "each later run reads only what changed since the previous run" },
};

const cellKey = (status: unknown, role: unknown) => `${String(status)}/${String(role)}`;

/** The census a snapshot implies: live workers per (onboarding status, role). */
function expectedCensus(s: Snapshot): Map<string, number> {
  const out = new Map<string, number>();
  for (const { deleted, record } of s.entities.worker ?? []) {
    if (deleted) continue;
    const k = cellKey(record.onboarding_status, record.primary_role);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

/** One run's census.json against the roster it must count. */
function judgeCensus(c: CheckRecorder, e: ScenarioEvidence, label: string, pass: 1 | 2): void {
  const want = expectedCensus(e.snapshots[label][ROLE]);
  const rows = (outputRows<Cell>(byLabel(e, label), FILE) ?? []).filter((r) => r && typeof r === "object" && r.workers !== 0);
  const got = new Map<string, number>();
  let repeated = 0;
  for (const r of rows) {
    const k = cellKey(r.onboarding_status, r.primary_role);
    if (got.has(k)) repeated++;
    got.set(k, (got.get(k) ?? 0) + Number(r.workers));
  }
  const wrong = [...new Set([...want.keys(), ...got.keys()])].filter((k) => want.get(k) !== got.get(k));
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const ok = wrong.length === 0 && repeated === 0;
  c.check(`${label}_census_matches`, ok, {
    basis: BASES.census,
    pass,
    fail: 0,
    mandatory: true,
    detail: ok
      ? `${total(want)} workers in ${want.size} cells`
      : [
          `${total(got)} workers counted, CrewCall has ${total(want)}`,
          wrong.length && `${wrong.length} cells off (${fewIds(wrong.map((k) => `${k}: ${got.get(k) ?? 0} not ${want.get(k) ?? 0}`))})`,
          repeated && `${repeated} cells repeated`,
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/** Whether every worker list call of the runs after the first asked only for changes. */
function readsChangesOnly(c: CheckRecorder, e: ScenarioEvidence, ctx: JudgeContext, laterEpochs: number[]): void {
  const vendor = ctx.vendors[ROLE];
  const list = vendor.resources.find((r) => r.name === "worker")!.list!;
  const param = vendor.incremental?.param ?? "";
  const calls = (e.requests[ROLE] ?? []).filter((r) => laterEpochs.includes(r.epoch) && r.method === "GET" && r.path === list);
  const full = calls.filter((r) => r.query[param] === undefined);
  c.check("later_runs_read_changes_only", calls.length > 0 && full.length === 0, {
    basis: BASES.changesOnly,
    level: "l2",
    detail: calls.length ? `${full.length} of ${calls.length} roster list calls after the first run without ${param}` : "no roster list call after the first run",
  });
}

export default defineTask({
  id: "task-0050",
  title: "CrewCall roster census drifting from CrewCall's count: people merged by phone number, and pages skipped on a bad answer",
  kind: "fix",
  roles: { [ROLE]: { vendor: "crewcall", checkpoint: 0 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "slow_count_divergence_churn_dupes",
  entry: { command: ["node", "src/main.ts"], subcommands: ["census"] },
  outputs: { [FILE]: jsonRows(Cell) },
  timeLimitS: 30,
  scenarios: [
    {
      // A first run while CrewCall re-ranks the roster under the crawl, then a night later: two
      // checkpoints of sign-ups, profile edits (new phone numbers), onboarding steps and deletions,
      // read through a first page of workers that answers 502 once.
      name: "two_nights",
      judge: (e, c, ctx) => {
        if (!commandsRanOk(c, "census_commands_ran", e, ["first", "night"], [FILE])) return;
        judgeCensus(c, e, "first", 2);
        judgeCensus(c, e, "night", 2);
        const rows = outputRows<Cell>(byLabel(e, "night"), FILE) ?? [];
        const sorted = rows.every((r, i) => {
          if (i === 0) return true;
          const [a, b] = [rows[i - 1], r].map((x) => [String(x.onboarding_status), String(x.primary_role)]);
          return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
        });
        c.check("census_sorted", rows.length > 0 && sorted, { basis: BASES.sorted, level: "l1", detail: sorted ? `${rows.length} cells in order` : "cells out of order" });
        const epochs = e.epochs[ROLE] ?? [];
        readsChangesOnly(c, e, ctx, epochs.slice(-1));
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials are in the environment",
    no_secrets_echoed_to_vendor: "Credentials are in the environment",
    retry_after_honored: "When CrewCall asks the job to wait, wait as long as it asks",
  },
});
