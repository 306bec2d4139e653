import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { Write } from "../../schema/writes.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { csvRows } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { committedWrites } from "../shared/committed-writes.ts";
import { DECISIONS_CSV, type Decision, hasOffset, parseDecisions } from "./decisions.ts";

export const ROLE = "crm";
const REPORT = "parity_report.csv";
const HEADER = ["application_id", "outcome", "stage", "disqualified", "detail"];
/** Faults the scenario arms (declared in declarations/vendors/recruitos.ts). */
export const CACHED_READS = "ros-cached-application-reads";
export const TOKENS_REVOKED = "ros-app-tokens-revoked";
/** The first stage move commits and answers 502: the read-back after the lost answer goes through the read cache. */
export const LOST_UPDATE_ANSWER = "ros-update-502-after-commit";
/** Where the drift is judged: the day the decisions were exported (checkpoint 1 of RecruitOS's timeline). */
export const CHECKPOINT = 1;

type Outcome = "repaired" | "in_sync" | "superseded" | "missing" | "refused";

const DECISIONS: Decision[] = parseDecisions(DECISIONS_CSV);

/** The decision that counts per application: the latest by decided_at. */
function latestDecisions(): Map<string, Decision> {
  const out = new Map<string, Decision>();
  for (const d of DECISIONS) {
    const key = String(d.application_id);
    const seen = out.get(key);
    if (!seen || d.decided_ms >= seen.decided_ms) out.set(key, d);
  }
  return out;
}
const LATEST = latestDecisions();
/** Applications with a row whose time carries no offset (Dublin time), and those whose decision leaves `disqualified` empty. */
const DUBLIN_TIMED = new Set(DECISIONS.filter((d) => !hasOffset(d.decided_at)).map((d) => String(d.application_id)));
const STAGE_ONLY = new Set([...LATEST].filter(([, d]) => d.disqualified === null).map(([id]) => id));

/** Whether RecruitOS's application matches the decision (an empty `disqualified` matches either value). */
function matches(record: Record<string, unknown>, d: Decision): boolean {
  return record.stage === d.stage && (d.disqualified === null || record.disqualified === d.disqualified);
}

function writeOf(vendor: Vendor, name: string): Write {
  const w = vendor.writes.find((x) => x.name === name);
  if (!w) throw new Error(`task-0028 expects ${vendor.id} to declare the write ${name}`);
  return w;
}

/** Whether RecruitOS takes the decision's stage, by the write's declared allowed values. */
function acceptedStage(vendor: Vendor, stage: string): boolean {
  const input = writeOf(vendor, "updateApplication").inputs.find((i) => i.name === "stage");
  return !input?.oneOf || input.oneOf.includes(stage);
}

/** The live application records of a snapshot, by id. */
function applications(s: Snapshot): Map<string, SnapshotRecord> {
  return new Map((s.entities.application ?? []).filter((r) => !r.deleted).map((r) => [r.id, r]));
}

/** The ticket's outcome rules, in order, for a decision against RecruitOS as it stood at `at`. */
function outcomeAt(vendor: Vendor, at: Snapshot, d: Decision): Outcome {
  const app = applications(at).get(String(d.application_id));
  if (!app) return "missing";
  if (matches(app.record, d)) return "in_sync";
  if (Number(app.record.updatedAt) > d.decided_ms) return "superseded";
  if (!acceptedStage(vendor, d.stage)) return "refused";
  return "repaired";
}

/** Why RecruitOS at `after` is not what settling every decision from `before` leaves. */
function stateProblems(vendor: Vendor, before: Snapshot, after: Snapshot): string[] {
  const was = applications(before);
  const now = applications(after);
  const problems: string[] = [];
  for (const [id, d] of LATEST) {
    const outcome = outcomeAt(vendor, before, d);
    const app = now.get(id);
    if (outcome === "repaired") {
      const kept = d.disqualified ?? was.get(id)?.record.disqualified;
      if (!app || app.record.stage !== d.stage || app.record.disqualified !== kept) problems.push(`${id}: not set to the decision (${d.stage}, ${kept})`);
    } else if (outcome !== "missing" && JSON.stringify(app) !== JSON.stringify(was.get(id))) problems.push(`${id}: ${outcome}, yet changed`);
  }
  return problems;
}

/** Records other than the decisions' applications that changed, appeared or went away. */
function strayChanges(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const entity of new Set([...Object.keys(before.entities), ...Object.keys(after.entities)])) {
    const was = new Map((before.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    const now = new Map((after.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    for (const id of new Set([...was.keys(), ...now.keys()])) if (was.get(id) !== now.get(id) && !(entity === "application" && LATEST.has(id))) out.push(`${entity} ${id}`);
  }
  return out;
}

/** Problems of a report against the outcomes from `before` and RecruitOS at `after`. */
function reportProblems(vendor: Vendor, rows: Record<string, unknown>[], before: Snapshot, after: Snapshot): string[] {
  const now = applications(after);
  const problems: string[] = [];
  for (const [id, d] of LATEST) {
    const mine = rows.filter((r) => String(r.application_id) === id);
    if (mine.length !== 1) {
      problems.push(`${id}: ${mine.length} rows`);
      continue;
    }
    const r = mine[0];
    const want = outcomeAt(vendor, before, d);
    if (r.outcome !== want) {
      problems.push(`${id}: ${JSON.stringify(r.outcome)}, should be ${want}`);
      continue;
    }
    const app = now.get(id);
    const stage = app ? String(app.record.stage) : "";
    const dq = app ? String(app.record.disqualified) : "";
    if (r.stage !== stage || r.disqualified !== dq)
      problems.push(`${id}: ${JSON.stringify(r.stage)}/${JSON.stringify(r.disqualified)}, RecruitOS holds ${JSON.stringify(stage)}/${JSON.stringify(dq)}`);
    else if (want === "refused" && !String(r.detail ?? "").trim()) problems.push(`${id}: refused without a reason`);
  }
  for (const r of rows) if (!LATEST.has(String(r.application_id))) problems.push(`${String(r.application_id)}: not in the file`);
  if (!rows.every((r, i) => i === 0 || Number(rows[i - 1].application_id) < Number(r.application_id))) problems.push("not sorted by application_id");
  return problems;
}

/** Committed PATCHes per application (a 200 answer), over the whole scenario. */
function committedPatches(e: ScenarioEvidence, vendor: Vendor): Map<string, number> {
  const w = writeOf(vendor, "updateApplication");
  const pattern = new RegExp(`^${(w.path ?? "").replace(/:[A-Za-z]+/g, "([^/]+)")}$`);
  const out = new Map<string, number>();
  for (const r of committedWrites(e.requests[ROLE] ?? [], { isCall: (r) => r.method === w.method && pattern.test(r.path), windowS: 0, afterCommitFaults: [] })) {
    const id = decodeURIComponent(pattern.exec(r.path)![1]);
    out.set(id, (out.get(id) ?? 0) + 1);
  }
  return out;
}

const RULES = { ticket: "settle it as the first of these that applies" };
const TRUTH = { ticket: "tells us the truth about each application" };
const EXIT = { ticket: "`repair` exits `0` when every application in the file has been settled" };
const DUBLIN = { ticket: "a time without an offset is Dublin time" };
const STAGE_ONLY_BASIS = { ticket: "leave the application's `disqualified` as RecruitOS has it" };
const RERUN = { ticket: "A rerun writes nothing that is already in place and reports each application as RecruitOS then holds it" };

function judge(e: ScenarioEvidence, c: CheckRecorder, vendor: Vendor): void {
  const before = e.snapshots.before[ROLE];
  const first = byLabel(e, "first");
  if (!plumbing(c, "first_exit_ok", first, [REPORT], EXIT)) return;
  const afterFirst = e.snapshots.first[ROLE];
  const outcomes = [...LATEST.values()].map((d) => outcomeAt(vendor, before, d));
  const tally = (["repaired", "in_sync", "superseded", "missing", "refused"] as const).map((o) => `${outcomes.filter((x) => x === o).length} ${o}`).join(", ");

  const wrong = stateProblems(vendor, before, afterFirst);
  c.check("recruitos_settled_by_the_rules", !wrong.length, {
    basis: RULES,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: wrong.length ? `${wrong.length} applications wrong: ${fewIds(wrong)}` : `${LATEST.size} applications settled (${tally})`,
  });

  const patches = committedPatches(e, vendor);
  const needless = [...patches].filter(([id, n]) => {
    const d = LATEST.get(id);
    return !d || outcomeAt(vendor, before, d) !== "repaired" || n > 1;
  });
  c.check("written_only_where_different", !needless.length, {
    basis: { ticket: "Write only where RecruitOS differs from the decision" },
    pass: 2,
    mandatory: true,
    level: "l2",
    detail: needless.length
      ? `${needless.length} applications written that needed no write, or written more than once: ${fewIds(needless.map(([id, n]) => `${id} x${n}`))}`
      : `${patches.size} applications written, each once and each one that differed`,
  });

  const stray = strayChanges(before, afterFirst);
  c.check("nothing_else_changed", !stray.length, {
    basis: { ticket: "Change nothing else in RecruitOS." },
    mandatory: true,
    level: "l1",
    detail: stray.length ? `${stray.length} other records changed (${fewIds(stray)})` : "only the decisions' applications changed",
  });

  const report = objects(outputRows<Record<string, unknown>>(first, REPORT));
  const lies = reportProblems(vendor, report, before, afterFirst);
  c.check("report_true", !lies.length, {
    basis: TRUTH,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: lies.length ? `${lies.length} problems: ${fewIds(lies)}` : `${LATEST.size} rows, each true to RecruitOS`,
  });

  // The two readings of the file a hurried job gets wrong, on their own so the verdict names them.
  const about = (ids: Set<string>) => [...wrong, ...lies].filter((p) => ids.has(p.slice(0, p.indexOf(":"))));
  const dublin = about(DUBLIN_TIMED);
  c.check("offsetless_times_read_as_dublin", !dublin.length, {
    basis: DUBLIN,
    mandatory: true,
    level: "l2",
    detail: dublin.length ? `${dublin.length} problems where a decision's time has no offset: ${fewIds(dublin)}` : `${DUBLIN_TIMED.size} applications with Dublin-time decisions settled right`,
  });
  const stageOnly = about(STAGE_ONLY);
  c.check("empty_disqualified_left_alone", !stageOnly.length, {
    basis: STAGE_ONLY_BASIS,
    mandatory: true,
    level: "l2",
    detail: stageOnly.length
      ? `${stageOnly.length} problems where the decision left disqualified empty: ${fewIds(stageOnly)}`
      : `${STAGE_ONLY.size} stage-only decisions settled with disqualified as it was`,
  });

  const rerun = byLabel(e, "rerun");
  if (plumbing(c, "rerun_exit_ok", rerun, [REPORT], EXIT)) {
    const afterRerun = e.snapshots.rerun[ROLE];
    const moved = strayChanges(afterFirst, afterRerun).concat(stateProblems(vendor, afterFirst, afterRerun));
    const diff = [...applications(afterRerun)].filter(([id, r]) => JSON.stringify(r) !== JSON.stringify(applications(afterFirst).get(id))).map(([id]) => id);
    c.check("rerun_wrote_nothing", !diff.length && !moved.length, {
      basis: RERUN,
      pass: 2,
      mandatory: true,
      level: "l3",
      detail: diff.length || moved.length ? `the rerun changed ${diff.length + moved.length} records (${fewIds([...diff, ...moved])})` : "the rerun left RecruitOS as it was",
    });
    const again = reportProblems(vendor, objects(outputRows<Record<string, unknown>>(rerun, REPORT)), afterFirst, afterRerun);
    c.check("rerun_report_true", !again.length, {
      basis: RERUN,
      pass: 2,
      mandatory: true,
      level: "l3",
      detail: again.length ? `${again.length} problems: ${fewIds(again)}` : `${LATEST.size} rows, each as RecruitOS then held it`,
    });
  }

  const single = /^\/api\/v3\/applications\/[^/]+$/;
  const reads = (e.requests[ROLE] ?? []).filter((r) => r.method === "GET" && single.test(r.path)).length;
  c.check("probe_reads_cheap", reads < LATEST.size, {
    basis: { ticket: "read an application on its own only when you are about to write it or to confirm it is gone" },
    level: "l2",
    detail: `${reads} single-application reads over both runs, for ${LATEST.size} applications in the file`,
  });
}

export default defineTask({
  id: "task-0028",
  title: "Harbour screening decisions into RecruitOS: probe the drift cheaply, repair only what differs, through a read cache and revoked tokens",
  kind: "harden",
  roles: { [ROLE]: { vendor: "recruitos", checkpoint: CHECKPOINT } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "parity_probe_targeted_repair",
  entry: { command: ["node", "src/main.ts"], subcommands: ["repair"] },
  outputs: {
    [REPORT]: csvRows(
      HEADER,
      z.looseObject({
        application_id: z.string().regex(/^\d+$/),
        outcome: z.enum(["repaired", "in_sync", "superseded", "missing", "refused"]),
        stage: z.string(),
        disqualified: z.enum(["true", "false", ""]),
        detail: z.string(),
      }),
    ),
  },
  timeLimitS: 60,
  scenarios: [
    {
      // The export day: single application reads come from a cache that keeps the version before
      // a write unless the request revalidates, every token is revoked a few calls in, and the
      // first stage move commits but its answer is lost (502). Then the warehouse team reruns the
      // job with the same file.
      name: "drifted_decisions_then_rerun",
      judge: (e, c, ctx) => judge(e, c, ctx.vendors[ROLE]),
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    token_reused_not_reminted: "Reuse access tokens while they are valid",
    retry_after_honored: "do not hammer an endpoint that is failing",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
  },
});
