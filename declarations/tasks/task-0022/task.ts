import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { Write } from "../../schema/writes.ts";
import type { CheckLevel, ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { timeFormat } from "../../../mechanics/time-formats/index.ts";
import { fewIds, lastError, outputRows, plumbing } from "../shared/judging.ts";
import agency from "./repo/input/placements.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";
import { committedWrites } from "../shared/committed-writes.ts";

export const ROLE = "ats";
const RESULT = "push_result.json";
const FEED = "candidate_changes.json";
/** Faults the scenarios arm (declared in declarations/vendors/hirewire.ts). */
export const FIRST_READ_429 = "hw-first-read-429";
export const LOST_ANSWER = "hw-stage-500-after-commit";
export const CREATE_LOST = "hw-create-503-after-commit";
export const MOVE_REFUSED = "hw-stage-503-after-create";
/** Faults whose 5xx answers a write that HireWire did commit. */
const AFTER_COMMIT = [LOST_ANSWER, CREATE_LOST];
/** Exit code the ticket asks for after a maintenance stop (EX_TEMPFAIL). */
const EXIT_MAINTENANCE = 75;
/**
 * Where the analytics team's job stopped (materials/analytics-handover.md):
 * 2025-06-01T00:00:00Z, which the handover stores as 1748736000000 ms.
 */
const HANDOVER_MS = Date.parse("2025-06-01T00:00:00Z");

/** One entry of the agency file the starter ships (`repo/input/placements.json`). */
interface Placement {
  ref: string;
  given_name: string;
  family_name: string;
  email: string;
  role: string;
  stages: string[];
}

/** One row of push_result.json, as the ticket defines it. */
interface ResultRow {
  ref: unknown;
  status: unknown;
  candidate_id: unknown;
  stage: unknown;
  refused_at: unknown;
  error: unknown;
}

const PLACEMENTS: Placement[] = agency.placements;

const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();

function writeOf(vendor: Vendor, name: string): Write {
  const w = vendor.writes.find((x) => x.name === name);
  if (!w) throw new Error(`task-0022 expects ${vendor.id} to declare the write ${name}`);
  return w;
}

/** The request paths of a write, as a pattern (`:id` segments match any one segment). */
function pathPattern(w: Write): RegExp {
  if (!w.path) throw new Error(`task-0022 expects the write ${w.name} to have a path`);
  return new RegExp(`^${w.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]+/g, "([^/]+)")}$`);
}

/** Whether HireWire takes a write body, by the write's declared inputs (required, type, length, allowed values). */
function acceptedBy(w: Write, body: Record<string, unknown>): boolean {
  return w.inputs.every((input) => {
    const v = body[input.name];
    if (v === undefined || v === null || v === "") return !input.required;
    if (input.type === "string" && typeof v !== "string") return false;
    if (input.maxLength !== undefined && String(v).length > input.maxLength) return false;
    return !input.oneOf || input.oneOf.includes(String(v));
  });
}

/** The createCandidate body the ticket's mapping gives for a placement. */
function createBody(p: Placement): Record<string, string> {
  return { name: p.given_name, surname: p.family_name, email: p.email, role: p.role };
}

/** Where a placement must end, by what HireWire accepts: done at its last stage, or refused at the create or a stage. */
interface Outcome {
  status: "done" | "refused";
  refusedAt: string | null;
  /** The moves that must be applied, in order. */
  applied: string[];
  /** The candidate's stage at the end, or null when no candidate may exist. */
  finalStage: string | null;
}

function outcomeOf(vendor: Vendor, p: Placement): Outcome {
  const start = vendor.resources.find((r) => r.name === writeOf(vendor, "createCandidate").entity)?.stages?.[0] ?? null;
  if (!acceptedBy(writeOf(vendor, "createCandidate"), createBody(p))) return { status: "refused", refusedAt: "create", applied: [], finalStage: null };
  const bad = p.stages.findIndex((stage) => !acceptedBy(writeOf(vendor, "moveStage"), { stage }));
  const applied = bad < 0 ? p.stages : p.stages.slice(0, bad);
  return { status: bad < 0 ? "done" : "refused", refusedAt: bad < 0 ? null : p.stages[bad], applied, finalStage: applied.at(-1) ?? start };
}

/** Live candidates of a snapshot by email, case-insensitively. */
function byEmail(s: Snapshot): Map<string, SnapshotRecord[]> {
  const out = new Map<string, SnapshotRecord[]>();
  for (const r of s.entities.candidate ?? []) if (!r.deleted) out.set(emailKey(r.record.email), [...(out.get(emailKey(r.record.email)) ?? []), r]);
  return out;
}

/** Committed stage moves per candidate id, in order. */
function committedMoves(requests: RequestLogEntry[], vendor: Vendor): Map<string, string[]> {
  const w = writeOf(vendor, "moveStage");
  const pattern = pathPattern(w);
  const moves = new Map<string, string[]>();
  const windowS = w.idempotency?.in === "header" ? w.idempotency.windowS : 0;
  for (const r of committedWrites(requests, { isCall: (r) => r.method === w.method && pattern.test(r.path), windowS, afterCommitFaults: AFTER_COMMIT })) {
    const id = decodeURIComponent(pattern.exec(r.path)![1]);
    const stage = String((r.body as Record<string, unknown> | null)?.stage ?? "");
    moves.set(id, [...(moves.get(id) ?? []), stage]);
  }
  return moves;
}

/**
 * Problems of a push_result.json against HireWire at a snapshot. `final`: the
 * run finished, so every placement is done or refused. `stopped`: a run that
 * stopped for maintenance may also leave placements pending, and a placement
 * standing where its refusal would leave it may be reported either way;
 * placements in `unknown` (their create committed but answered 503) may be
 * reported pending without a candidate.
 */
function resultProblems(rows: ResultRow[], snap: Snapshot, vendor: Vendor, mode: "final" | "stopped", unknown = new Set<string>()): string[] {
  const people = byEmail(snap);
  const problems: string[] = [];
  const refs = new Set(PLACEMENTS.map((p) => p.ref));
  for (const p of PLACEMENTS) {
    const mine = rows.filter((r) => String(r.ref) === p.ref);
    if (mine.length !== 1) {
      problems.push(`${p.ref}: ${mine.length} rows`);
      continue;
    }
    const row = mine[0];
    const cands = people.get(emailKey(p.email)) ?? [];
    if (cands.length > 1) {
      problems.push(`${p.ref}: HireWire holds ${cands.length} candidates for this person`);
      continue;
    }
    const cand = cands[0];
    const exp = outcomeOf(vendor, p);
    if (unknown.has(p.ref) && row.status === "pending" && row.candidate_id === null && row.stage === null) continue;
    if (cand ? String(row.candidate_id) !== cand.id || typeof row.candidate_id !== "number" : row.candidate_id !== null) {
      problems.push(`${p.ref}: candidate_id ${JSON.stringify(row.candidate_id)}, HireWire has ${cand?.id ?? "none"}`);
      continue;
    }
    const stage = cand ? cand.record.stage : null;
    if (row.stage !== stage) {
      problems.push(`${p.ref}: stage ${JSON.stringify(row.stage)}, HireWire shows ${JSON.stringify(stage)}`);
      continue;
    }
    const doneTrue = exp.status === "done" && !!cand && stage === exp.finalStage;
    const refusedTrue = exp.status === "refused" && (exp.refusedAt === "create" ? !cand : !!cand && stage === exp.finalStage);
    const allowed = new Set<string>();
    if (doneTrue) allowed.add("done");
    if (refusedTrue) allowed.add("refused");
    if (mode === "stopped" && !doneTrue) allowed.add("pending");
    if (!allowed.has(String(row.status))) {
      problems.push(
        `${p.ref}: status ${JSON.stringify(row.status)}, ${allowed.size ? `HireWire's state says ${[...allowed].join(" or ")}` : `HireWire is not where this placement must end (${exp.status})`}`,
      );
      continue;
    }
    if (row.status === "refused") {
      if (row.refused_at !== exp.refusedAt) problems.push(`${p.ref}: refused_at ${JSON.stringify(row.refused_at)}, HireWire refuses ${JSON.stringify(exp.refusedAt)}`);
      else if (typeof row.error !== "string" || !row.error.trim()) problems.push(`${p.ref}: refused without HireWire's reason`);
    } else if (row.refused_at !== null && row.refused_at !== undefined) problems.push(`${p.ref}: refused_at ${JSON.stringify(row.refused_at)} on a ${String(row.status)} row`);
  }
  for (const r of rows) if (!refs.has(String(r.ref))) problems.push(`${String(r.ref)}: no such placement`);
  if (!rows.every((r, i) => i === 0 || String(rows[i - 1].ref) < String(r.ref))) problems.push("not sorted by ref");
  return problems;
}

/** The outcome checks every push scenario's end state answers to; names carry the scenario's prefix. */
function judgeOutcome(c: CheckRecorder, e: ScenarioEvidence, vendor: Vendor, run: ConnectorRun, snap: Snapshot, prefix: string, level: CheckLevel): void {
  const people = byEmail(snap);
  const wrongCount: string[] = [];
  for (const p of PLACEMENTS) {
    const want = outcomeOf(vendor, p).refusedAt === "create" ? 0 : 1;
    const have = (people.get(emailKey(p.email)) ?? []).length;
    if (have !== want) wrongCount.push(`${p.ref}: ${have} candidates${want ? "" : " (HireWire refuses this person)"}`);
  }
  c.check(`${prefix}each_person_created_once`, wrongCount.length === 0, {
    basis: { ticket: "each placement gets exactly one candidate, never two, whatever happens along the way." },
    pass: 2,
    mandatory: true,
    level,
    detail: wrongCount.length
      ? `${wrongCount.length} placements without exactly the candidates they should have: ${fewIds(wrongCount)}`
      : `${PLACEMENTS.length} placements, one candidate each where HireWire accepts the person`,
  });

  const moves = committedMoves(e.requests[ROLE] ?? [], vendor);
  const ours = new Set<string>();
  const wrongChain: string[] = [];
  for (const p of PLACEMENTS) {
    const exp = outcomeOf(vendor, p);
    const cands = people.get(emailKey(p.email)) ?? [];
    for (const cand of cands) ours.add(cand.id);
    const got = cands.length === 1 ? (moves.get(cands[0].id) ?? []) : [];
    if (cands.length > 1) wrongChain.push(`${p.ref}: ${cands.length} candidates`);
    else if (JSON.stringify(got) !== JSON.stringify(exp.applied)) wrongChain.push(`${p.ref}: moves [${got.join(", ")}], want [${exp.applied.join(", ")}]`);
  }
  const stray = [...moves.keys()].filter((id) => !ours.has(id));
  c.check(`${prefix}stages_applied_once_in_order`, !wrongChain.length && !stray.length, {
    basis: { ticket: "Then move the candidate through its `stages` with `moveStage` (`POST /v1/candidates/:id/stage`), one move per listed stage, in the listed order." },
    pass: 2,
    mandatory: true,
    level,
    detail:
      [wrongChain.length && `${wrongChain.length} chains wrong: ${fewIds(wrongChain)}`, stray.length && `moves on candidates of no placement (${fewIds(stray)})`].filter(Boolean).join("; ") ||
      "every placement's stages committed once each, in order, and no further than HireWire allows",
  });

  const rows = objects(outputRows<ResultRow>(run, RESULT));
  const problems = resultProblems(rows, snap, vendor, "final");
  c.check(`${prefix}result_true_to_hirewire`, !problems.length, {
    basis: { ticket: "Say what HireWire holds, not what you sent." },
    pass: 2,
    mandatory: true,
    level,
    detail: problems.length ? `${problems.length} problems: ${fewIds(problems)}` : `${PLACEMENTS.length} rows, each true to HireWire`,
  });
}

/** Records changed between two snapshots (every entity), and new records that are not a placement's candidate. */
function strayChanges(before: Snapshot, after: Snapshot): { changed: string[]; stray: string[] } {
  const emails = new Set(PLACEMENTS.map((p) => emailKey(p.email)));
  const changed: string[] = [];
  const stray: string[] = [];
  for (const [entity, rows] of Object.entries(after.entities)) {
    const was = new Map((before.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of rows) {
      const old = was.get(r.id);
      if (old) {
        if (JSON.stringify(old) !== JSON.stringify(r)) changed.push(`${entity} ${r.id}`);
      } else if (entity !== "candidate" || !emails.has(emailKey(r.record.email))) stray.push(`${entity} ${r.id}`);
    }
  }
  return { changed, stray };
}

/** Records (every entity) that changed, appeared or went away between two snapshots. */
function snapshotDiff(a: Snapshot, b: Snapshot): string[] {
  const out: string[] = [];
  for (const entity of new Set([...Object.keys(a.entities), ...Object.keys(b.entities)])) {
    const was = new Map((a.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    const now = new Map((b.entities[entity] ?? []).map((r) => [r.id, JSON.stringify(r)]));
    for (const [id, r] of now) if (was.get(id) !== r) out.push(`${entity} ${id}`);
    for (const id of was.keys()) if (!now.has(id)) out.push(`${entity} ${id}`);
  }
  return out;
}

/** The instant (ms) of a timestamp as the vendor serves it. */
function instant(vendor: Vendor, v: unknown): number | null {
  if (v === null || v === undefined) return null;
  return timeFormat(vendor.clock.format).parse(String(v));
}

/** Candidates a poll must deliver: live at the snapshot and changed after `afterMs`. */
function changedAfter(vendor: Vendor, snap: Snapshot, afterMs: number): SnapshotRecord[] {
  return (snap.entities.candidate ?? []).filter((r) => !r.deleted && (instant(vendor, r.record.updated_at) ?? 0) > afterMs);
}

/** The newest change at a snapshot, or `floor` when nothing is newer: where the next poll must start. */
function newestChange(vendor: Vendor, snap: Snapshot, floor: number): number {
  return Math.max(floor, ...(snap.entities.candidate ?? []).filter((r) => !r.deleted).map((r) => instant(vendor, r.record.updated_at) ?? 0));
}

/** A poll's feed: exactly the changed candidates, each with its current data and ISO timestamps of the same instants. */
function judgeFeed(c: CheckRecorder, name: string, run: ConnectorRun, vendor: Vendor, snap: Snapshot, afterMs: number, pass: 1 | 2): void {
  const resource = vendor.resources.find((r) => r.name === "candidate")!;
  const want = changedAfter(vendor, snap, afterMs);
  const rows = objects(outputRows<Record<string, unknown>>(run, FEED));
  const got = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) got.set(String(r.candidate_id), [...(got.get(String(r.candidate_id)) ?? []), r]);
  const wantIds = new Set(want.map((r) => r.id));
  const missing = want.filter((r) => !got.has(r.id)).map((r) => r.id);
  const extra = [...got.keys()].filter((id) => !wantIds.has(id));
  const twice = [...got].filter(([, rs]) => rs.length > 1).map(([id]) => id);
  const wrong: string[] = [];
  for (const rec of want) {
    const row = got.get(rec.id)?.[0];
    if (!row) continue;
    const off = resource.fields
      .filter((f) => f.name !== resource.idField)
      .filter((f) => {
        const v = rec.record[f.name] ?? null;
        if (f.type !== "timestamp") return (row[f.name] ?? null) !== v;
        const sent = row[f.name];
        return typeof sent !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(sent) || Date.parse(sent) !== instant(vendor, v);
      })
      .map((f) => f.name);
    if (off.length) wrong.push(`${rec.id} (${off.join(", ")}: ${off.map((f) => JSON.stringify(row[f])).join(", ")})`);
  }
  const sorted = rows.every((r, i) => i === 0 || Number(rows[i - 1].candidate_id) < Number(r.candidate_id));
  const ok = !missing.length && !extra.length && !twice.length && !wrong.length && sorted;
  c.check(name, ok, {
    basis: { ticket: "Each poll must pick up exactly where the previous one left off, by HireWire's own timestamps: nothing missed, nothing twice." },
    pass,
    mandatory: true,
    level: "l1",
    detail: ok
      ? `${want.length} changed candidates, each once with its current data`
      : [
          missing.length && `${missing.length} of ${want.length} changed candidates missing (${fewIds(missing)})`,
          extra.length && `${extra.length} candidates that did not change in the window (${fewIds(extra)})`,
          twice.length && `${twice.length} candidates twice (${fewIds(twice)})`,
          wrong.length && `${wrong.length} rows wrong (${fewIds(wrong)})`,
          !sorted && "not sorted by candidate_id",
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/** POSTs to HireWire's write endpoints (createCandidate and moveStage). */
function writeOfPaths(vendor: Vendor, requests: RequestLogEntry[]): RequestLogEntry[] {
  const ws = ["createCandidate", "moveStage"].map((n) => writeOf(vendor, n));
  return requests.filter((r) => ws.some((w) => r.method === w.method && pathPattern(w).test(r.path)));
}

export default defineTask({
  id: "task-0022",
  title: "Keel & Crane placements into HireWire: chains of creates and stage moves resumed after maintenance, then a seconds-watermark changes feed",
  kind: "build",
  roles: { [ROLE]: { vendor: "hirewire", checkpoint: 0 } },
  seed: 7,
  docsProfile: "stale",
  surfaces: ["writeback", "polling"],
  primaryMechanic: "chained_write_partial_failure_idempotency",
  entry: { command: ["node", "src/main.ts"], subcommands: ["push", "poll"] },
  outputs: {
    [RESULT]: jsonRows(
      z.looseObject({
        ref: z.string(),
        status: z.enum(["done", "refused", "pending"]),
        candidate_id: z.number().int().nullable(),
        stage: z.string().nullable(),
        refused_at: z.string().nullable(),
        error: z.string().nullable(),
      }),
    ),
    [FEED]: jsonRows(z.looseObject({ candidate_id: z.number().int() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // The whole file in one run.
      name: "push_batch",
      judge: (e, c, ctx) => {
        const run = e.runs[0];
        if (!plumbing(c, "batch_push_exit_ok", run, [RESULT], { ticket: "`push` exits `0` when every placement has been dealt with (done or refused)" })) return;
        const vendor = ctx.vendors[ROLE];
        const before = e.snapshots.before[ROLE];
        const after = e.snapshots.after[ROLE];
        judgeOutcome(c, e, vendor, run, after, "batch_", "l1");

        const people = byEmail(after);
        const wrongFields: string[] = [];
        for (const p of PLACEMENTS) {
          const want = createBody(p);
          for (const cand of people.get(emailKey(p.email)) ?? []) {
            const off = Object.keys(want).filter((k) => cand.record[k] !== want[k]);
            if (off.length) wrongFields.push(`${p.ref} (${off.join(", ")})`);
          }
        }
        c.check("batch_candidates_filled_as_mapped", wrongFields.length === 0, {
          basis: { ticket: "`name` from `given_name`, `surname` from `family_name`, `email` from `email` as given, `role` from `role`." },
          detail: wrongFields.length ? `${wrongFields.length} candidates not filled as the mapping says: ${fewIds(wrongFields)}` : "every candidate filled as the mapping says",
        });

        const { changed, stray } = strayChanges(before, after);
        c.check("batch_nothing_else_changed", !changed.length && !stray.length, {
          basis: { ticket: "Write nothing to HireWire but the placements' candidates and their stage moves." },
          mandatory: true,
          detail:
            changed.length || stray.length
              ? `${changed.length} records that existed changed (${fewIds(changed)}), ${stray.length} records of no placement created (${fewIds(stray)})`
              : "only the placements' candidates were added",
        });

        const writes = writeOfPaths(vendor, e.requests[ROLE] ?? []);
        if (writes.length) {
          const bare = writes.filter((r) => !r.idempotencyKey);
          c.check("batch_writes_carry_idempotency_key", !bare.length, {
            basis: { ticket: "send an `Idempotency-Key` with every write" },
            level: "l2",
            detail: bare.length ? `${bare.length} of ${writes.length} writes without an Idempotency-Key (first #${bare[0].seq})` : `${writes.length} writes, each with an Idempotency-Key`,
          });
        }
      },
    },
    {
      // Two maintenance windows: the first create of the file commits but answers 503, so the
      // run must stop without knowing the candidate's id; the next run meets a stage move that
      // commits but answers 500, and then a 503 on the move after a create further down the file.
      // A third run finishes every chain where it stopped; a rerun of the finished job must
      // change nothing.
      name: "maintenance_stops_and_resume",
      judge: (e, c, ctx) => {
        const vendor = ctx.vendors[ROLE];
        const requests = e.requests[ROLE] ?? [];
        const [atCreate, atMove, resumed, rerun] = e.runs;
        const stops = [
          { run: atCreate, fault: CREATE_LOST, what: "the create that answered 503" },
          { run: atMove, fault: MOVE_REFUSED, what: "the stage move that answered 503" },
        ];
        const stopProblems = stops.flatMap(({ run, fault, what }) => {
          if (!requests.some((r) => r.faults.includes(fault))) return [`${what} was never reached`];
          if (!run) return ["the connector did not run"];
          if (run.exitCode !== EXIT_MAINTENANCE) return [`after ${what}, the run exited ${run.exitCode ?? "(killed)"}${run.exitCode ? ` (${lastError(run.stderrTail)})` : ""}`];
          if (outputRows<ResultRow>(run, RESULT) === null) return [`after ${what}, the run left no readable ${RESULT}`];
          return [];
        });
        c.check("maintenance_runs_stopped_with_75", !stopProblems.length, {
          basis: {
            ticket:
              "Do not wait one out and do not push through it: stop the run straight away, write `push_result.json` for what has been done so far, keep whatever you need to carry on, and exit with code `75`.",
          },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: stopProblems.length ? stopProblems.join("; ") : "both runs stopped at the maintenance window with exit 75 and a result file",
        });
        if (!stopProblems.length) {
          // The create that answered 503 committed: its run cannot know the new candidate's id.
          const pattern = pathPattern(writeOf(vendor, "createCandidate"));
          const unknown = new Set(
            requests
              .filter((r) => r.faults.includes(CREATE_LOST) && pattern.test(r.path))
              .map((r) => emailKey((r.body as Record<string, unknown> | null)?.email))
              .flatMap((email) => PLACEMENTS.filter((p) => emailKey(p.email) === email).map((p) => p.ref)),
          );
          const problems = [
            ...resultProblems(objects(outputRows<ResultRow>(atCreate, RESULT)), e.snapshots.stopped_at_create[ROLE], vendor, "stopped", unknown).map((p) => `first stop: ${p}`),
            ...resultProblems(objects(outputRows<ResultRow>(atMove, RESULT)), e.snapshots.stopped_at_move[ROLE], vendor, "stopped").map((p) => `second stop: ${p}`),
          ];
          c.check("maintenance_results_true_so_far", !problems.length, {
            basis: { ticket: "Say what HireWire holds, not what you sent." },
            pass: 1,
            level: "l3",
            detail: problems.length ? `${problems.length} problems: ${fewIds(problems)}` : "each stopped run's result says what HireWire held when it stopped",
          });
        }

        if (plumbing(c, "resumed_push_exit_ok", resumed, [RESULT], { ticket: "`push` exits `0` when every placement has been dealt with (done or refused)" }))
          judgeOutcome(c, e, vendor, resumed, e.snapshots.resumed[ROLE], "resumed_", "l3");

        if (!plumbing(c, "rerun_push_exit_ok", rerun, [RESULT], { ticket: "`push` exits `0` when every placement has been dealt with (done or refused)" })) return;
        const diff = snapshotDiff(e.snapshots.resumed[ROLE], e.snapshots.rerun[ROLE]);
        c.check("rerun_changed_nothing", !diff.length, {
          basis: { ticket: "Such a run changes nothing in HireWire and writes the same, true result." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: diff.length ? `the rerun changed or created ${diff.length} records (${fewIds(diff)})` : "the rerun left HireWire as the finished run had",
        });
        const problems = resultProblems(objects(outputRows<ResultRow>(rerun, RESULT)), e.snapshots.rerun[ROLE], vendor, "final");
        c.check("rerun_result_true_to_hirewire", !problems.length, {
          basis: { ticket: "Such a run changes nothing in HireWire and writes the same, true result." },
          pass: 1,
          level: "l3",
          detail: problems.length ? `${problems.length} problems: ${fewIds(problems)}` : `${PLACEMENTS.length} rows, each true to HireWire`,
        });
      },
    },
    {
      // The analytics feed: the first poll from the old job's watermark, then a catch-up after
      // each of two days of changes; the first catch-up's first read meets a rate-limit window.
      name: "poll_catch_up",
      judge: (e, c, ctx) => {
        const vendor = ctx.vendors[ROLE];
        const [first, catchUp, second] = e.runs;
        const s1 = e.snapshots.first[ROLE];
        const s2 = e.snapshots.catch_up[ROLE];
        const s3 = e.snapshots.second_catch_up[ROLE];
        const t1 = newestChange(vendor, s1, HANDOVER_MS);
        const t2 = newestChange(vendor, s2, t1);
        if (plumbing(c, "first_poll_exit_ok", first, [FEED], { ticket: "writes them to `candidate_changes.json`" }))
          judgeFeed(c, "first_poll_changes_since_handover", first, vendor, s1, HANDOVER_MS, 2);
        if (plumbing(c, "catch_up_poll_exit_ok", catchUp, [FEED], { ticket: "writes them to `candidate_changes.json`" })) judgeFeed(c, "catch_up_poll_changes_since_first", catchUp, vendor, s2, t1, 2);
        if (plumbing(c, "second_catch_up_poll_exit_ok", second, [FEED], { ticket: "writes them to `candidate_changes.json`" }))
          judgeFeed(c, "second_catch_up_changes_since_previous", second, vendor, s3, t2, 1);

        const param = vendor.incremental?.param ?? "since";
        const latest = newestChange(vendor, s3, t2);
        const sent = (e.requests[ROLE] ?? []).filter((r) => r.method === "GET" && r.query[param] !== undefined);
        if (sent.length) {
          const off = sent.filter((r) => {
            const at = instant(vendor, r.query[param]);
            return at === null || at < HANDOVER_MS || at > latest;
          });
          c.check("poll_watermark_on_vendor_clock", !off.length, {
            basis: { ticket: "Each poll must pick up exactly where the previous one left off, by HireWire's own timestamps: nothing missed, nothing twice." },
            level: "l2",
            detail: off.length
              ? `${off.length} of ${sent.length} requests sent ${param}=${off[0].query[param]}, outside HireWire's timeline from the handover to its newest change`
              : `${sent.length} incremental reads, each from a watermark on HireWire's clock`,
          });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep the API key out of URLs",
    no_secrets_echoed_to_vendor: "keep the API key out of URLs",
    retry_after_honored: "When it rate-limits us, wait as long as it asks before trying again",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
    idempotent_write_retries: "send an `Idempotency-Key` with every write",
    no_full_resync_after_incremental: "do not re-read every candidate",
  },
});
