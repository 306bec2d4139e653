import { z } from "zod";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { type MirrorRow, byLabel, compareRows, expectedRows, fewIds, mirrorOutputs, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { committedWrites } from "../shared/committed-writes.ts";
import { callElement, callsOperation, rereads } from "../shared/gateway-calls.ts";

export const ROLE = "payroll";
/** Faults the scenarios arm (declared in declarations/vendors/paygrade.ts). */
export const PAGE_503 = "pg-assignments-503-page-3";
export const BURST_429 = "pg-early-429";
export const LOST_ANSWER = "pg-update-504-after-commit";
/** Payroll Ops at work during the first night's crawl: assignments move to the head of the list while it is paged (the total stays the same). */
export const DRIFT = "pg-assignments-drift";
/** The bureau's read cache: an assignment read a second time is answered as it was first read, unless the call revalidates. */
export const CACHED_READS = "pg-assignment-reads-cached";

const MIRRORS = [
  { entity: "employee", file: "employees.json", idField: "employee_id", list: "ListEmployees" },
  { entity: "assignment", file: "assignments.json", idField: "assignment_id", list: "ListAssignments" },
] as const;
const RESULT = "rate_changes.json";
const UPDATE = "UpdateAssignment";

const SYNC_OK = "`node src/main.ts sync` exits 0 once both files match PayGrade.";
const MATCH = "After every run of `sync` that exits 0, `employees.json` and `assignments.json` match PayGrade as it stands at that moment.";
const UTC = "`updated_at` is the record's `last_changed` as a UTC instant ending in `Z`";
const INCREMENTAL = "later runs read only what changed since the last run that finished";
const APPLY_OK = "`node src/main.ts apply-rates` exits 0 once every row of the file has an outcome.";
const ONCE = "Each approved change is made in PayGrade once, whatever happens on the way and however often the job runs.";
const NOTHING_ELSE = "Change nothing in PayGrade but the rates of the rows whose outcome is `applied`.";
const TRUTH = "`rate_changes.json` tells the truth about every row of the file as PayGrade stands when the run ends";
const WAIT = "When PayGrade asks us to wait, wait as long as it asks";

/** `repo/input/rate-changes.csv` as the starter ships it (a test keeps the two the same). */
export const RATE_CHANGES_CSV = `assignment,new_pay_rate,new_bill_rate,approved_by,note
asg_000002,30.00,45.00,"Okafor, Dana",Q2 rate card
asg_7,57.50,92.00,"Okafor, Dana",retention uplift
 ASG_000011 ,29.00,91.25,Lee Brennan,Q2 rate card
asg_000001,21.00,66.00,Lee Brennan,"backdated, see email"
asg_000061,35.00,52.50,"Okafor, Dana",Q2 rate card
asg_000512,28.00,40.00,Lee Brennan,new site
asg_000012,62.00,59.25,Lee Brennan,overtime cover
asg_000017,65.00,85.00,"Okafor, Dana",no change
asg_19,19.99,97.50,Lee Brennan,Q2 rate card
asg_000091,25.00,38.00,Lee Brennan,Q2 rate card
asg_000023,49.00,99.00,"Okafor, Dana",Q2 rate card
`;

/** One data row of Finance's file, as the ticket reads it. */
interface RateChange {
  line: number;
  assignmentId: string;
  pay: number;
  bill: number;
}

function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n") {
      rows.push([...row, field]);
      row = [];
      field = "";
    } else if (ch !== "\r") field += ch;
  }
  if (field !== "" || row.length) rows.push([...row, field]);
  return rows;
}

const dollarsToCents = (v: string): number => {
  const [whole, frac = ""] = v.trim().split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
};

/** Finance's rows: line numbers from 2, ids as PayGrade numbers them, rates in cents. */
const CHANGES: RateChange[] = csvRows(RATE_CHANGES_CSV)
  .slice(1)
  .map((cells, i) => ({ cells, line: i + 2 }))
  .filter(({ cells }) => cells.some((c) => c.trim() !== ""))
  .map(({ cells, line }) => ({
    line,
    assignmentId: `asg_${cells[0]
      .trim()
      .replace(/^asg_0*/i, "")
      .padStart(6, "0")}`,
    pay: dollarsToCents(cells[1]),
    bill: dollarsToCents(cells[2]),
  }));

type Outcome = "unknown" | "deleted" | "not_open" | "negative_margin" | "applied";

function assignment(s: Snapshot, id: string): SnapshotRecord | undefined {
  return (s.entities.assignment ?? []).find((r) => r.id === id);
}

/** A row's outcome, in the ticket's order of precedence, against PayGrade before the job ran. */
function outcome(ch: RateChange, before: Snapshot): Outcome {
  const r = assignment(before, ch.assignmentId);
  if (!r) return "unknown";
  if (r.deleted) return "deleted";
  if (r.record.state !== "open") return "not_open";
  if (ch.pay > ch.bill) return "negative_margin";
  return "applied";
}

// ---------------------------------------------------------------- the copy

function asInstant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

/** Timestamps in `data` compared as instants; `updated_at` left out (judged on its own). */
function comparable(r: MirrorRow): MirrorRow {
  if (!r || typeof r !== "object" || !r.data || typeof r.data !== "object" || Array.isArray(r.data)) return r;
  return { ...r, data: Object.fromEntries(Object.entries(r.data).map(([k, v]) => [k, asInstant(v)])), updated_at: null };
}

function judgeCopy(c: CheckRecorder, run: ConnectorRun, truth: Snapshot, names: { match: string; utc: string }): void {
  const problems: string[] = [];
  const stamps: string[] = [];
  let total = 0;
  for (const m of MIRRORS) {
    const rows = objects(outputRows<MirrorRow>(run, m.file));
    const all = new Set((truth.entities[m.entity] ?? []).map((r) => r.id));
    const expected = expectedRows(truth, m.entity, { idField: m.idField, updatedField: "last_changed", seen: all });
    total += expected.size;
    const cmp = compareRows(rows.map(comparable), new Map([...expected].map(([id, r]) => [id, comparable(r)])));
    if (!cmp.ok) problems.push(`${m.file}: ${cmp.detail}`);
    const got = new Map(rows.map((r) => [String(r.source_id), r]));
    for (const [id, want] of expected) {
      if (want.is_deleted) continue;
      const have = got.get(id)?.updated_at;
      if (typeof have !== "string" || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(have) || Date.parse(have) !== Date.parse(String(want.updated_at))) stamps.push(`${id} ${JSON.stringify(have)}`);
    }
  }
  c.check(names.match, problems.length === 0, {
    basis: { ticket: MATCH },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: problems.length ? problems.join("; ") : `${total} rows across ${MIRRORS.length} files match`,
  });
  c.check(names.utc, stamps.length === 0, {
    basis: { ticket: UTC },
    mandatory: true,
    level: "l1",
    detail: stamps.length ? `${stamps.length} rows' updated_at is not their last_changed in UTC with Z (${fewIds(stamps)})` : "every live row's updated_at is its last_changed in UTC",
  });
}

// ---------------------------------------------------------------- the gateway's traffic

const gatewayPath = (ctx: JudgeContext) => ctx.vendors[ROLE].gateways[0]?.path ?? "";

function requestsOf(e: ScenarioEvidence, epoch: number | undefined): RequestLogEntry[] {
  return (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch).sort((x, y) => x.seq - y.seq);
}

/** UpdateAssignment calls PayGrade applied (a 200, or the answer lost after commit), replays of a stored request_id left out. */
function committedUpdates(ctx: JudgeContext, requests: RequestLogEntry[]): RequestLogEntry[] {
  const path = gatewayPath(ctx);
  return committedWrites(requests, { isCall: (r) => r.method === "POST" && r.path === path && callsOperation(r, UPDATE), windowS: 86_400, afterCommitFaults: [LOST_ANSWER] });
}

/** How PayGrade's employee and assignment lists filter on changes (the element the API honours, not the one its docs name). */
function incrementalLists(ctx: JudgeContext) {
  return {
    path: gatewayPath(ctx),
    lists: MIRRORS.map((m) => ({ operation: m.list, entity: m.entity })),
    sinceElement: ctx.vendors[ROLE].incremental?.param ?? "changedSince",
    changedField: "last_changed",
  };
}

// ---------------------------------------------------------------- the rate changes

interface ResultRow {
  line: unknown;
  assignment_id: unknown;
  outcome: unknown;
}

/** Each row's outcome is true to PayGrade: one row per line, sorted, the right id and outcome, and `applied` only where PayGrade holds the rates. */
function judgeResult(c: CheckRecorder, name: string, run: ConnectorRun, before: Snapshot, after: Snapshot): void {
  const rows = objects(outputRows<ResultRow>(run, RESULT));
  const problems: string[] = [];
  for (const ch of CHANGES) {
    const mine = rows.filter((r) => r.line === ch.line);
    if (mine.length !== 1) {
      problems.push(`line ${ch.line}: ${mine.length} rows`);
      continue;
    }
    const want = outcome(ch, before);
    const held = assignment(after, ch.assignmentId)?.record;
    const holds = !!held && held.pay_rate === ch.pay && held.bill_rate === ch.bill;
    if (mine[0].assignment_id !== ch.assignmentId) problems.push(`line ${ch.line}: assignment_id ${JSON.stringify(mine[0].assignment_id)}, not ${ch.assignmentId}`);
    else if (mine[0].outcome !== want) problems.push(`line ${ch.line}: ${JSON.stringify(mine[0].outcome)}, not ${want}`);
    else if (want === "applied" && !holds) problems.push(`line ${ch.line}: applied, but PayGrade holds ${held?.pay_rate}/${held?.bill_rate}, not ${ch.pay}/${ch.bill}`);
  }
  const lines = new Set(CHANGES.map((ch) => ch.line));
  const extra = rows.filter((r) => !lines.has(r.line as number));
  const sorted = rows.every((r, i) => i === 0 || Number(rows[i - 1].line) < Number(r.line));
  const ok = !problems.length && !extra.length && sorted;
  c.check(name, ok, {
    basis: { ticket: TRUTH },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: ok
      ? `${CHANGES.length} rows, each true to PayGrade`
      : [problems.length && `${problems.length} rows wrong (${fewIds(problems)})`, extra.length && `${extra.length} rows for no line of the file`, !sorted && "not sorted by line"]
          .filter(Boolean)
          .join("; "),
  });
}

/** The rates of every applicable row are in PayGrade, each changed at most once over every run. */
function judgeOnce(c: CheckRecorder, name: string, ctx: JudgeContext, requests: RequestLogEntry[], before: Snapshot, after: Snapshot): void {
  const committed = committedUpdates(ctx, requests);
  const wrong: string[] = [];
  for (const ch of CHANGES) {
    if (outcome(ch, before) !== "applied") continue;
    const held = assignment(after, ch.assignmentId)?.record;
    const n = committed.filter((r) => callElement(r, "assignment_id") === ch.assignmentId).length;
    if (!held || held.pay_rate !== ch.pay || held.bill_rate !== ch.bill) wrong.push(`line ${ch.line} ${ch.assignmentId}: PayGrade holds ${held?.pay_rate}/${held?.bill_rate}`);
    else if (n > 1) wrong.push(`line ${ch.line} ${ch.assignmentId}: changed ${n} times`);
  }
  c.check(name, wrong.length === 0, {
    basis: { ticket: ONCE },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: wrong.length ? `${wrong.length} approved changes not made exactly once: ${fewIds(wrong)}` : `${committed.length} rate changes committed, each approved change once`,
  });
}

/** Nothing else changed: records other than the applied rows' as they were, the applied rows changed only in their rates. */
function judgeNothingElse(c: CheckRecorder, before: Snapshot, after: Snapshot): void {
  const applied = new Map(CHANGES.filter((ch) => outcome(ch, before) === "applied").map((ch) => [ch.assignmentId, ch]));
  const changed: string[] = [];
  for (const [entity, rows] of Object.entries(after.entities)) {
    const had = new Map((before.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of rows) {
      const old = had.get(r.id);
      if (!old) {
        changed.push(`${entity} ${r.id} created`);
        continue;
      }
      const strip = (x: SnapshotRecord) => {
        if (entity !== "assignment" || !applied.has(x.id)) return JSON.stringify(x);
        const { pay_rate: _p, bill_rate: _b, last_changed: _l, ...rest } = x.record;
        return JSON.stringify({ ...x, record: rest });
      };
      if (strip(old) !== strip(r)) changed.push(`${entity} ${r.id}`);
    }
  }
  c.check("nothing_else_changed", changed.length === 0, {
    basis: { ticket: NOTHING_ELSE },
    mandatory: true,
    level: "l1",
    detail: changed.length ? `${changed.length} records changed that no applied row asks for (${fewIds(changed)})` : "only the applied rows' rates changed",
  });
}

/** The row whose UpdateAssignment answered a fault after PayGrade applied it: reported applied. */
function judgeLostAnswer(c: CheckRecorder, ctx: JudgeContext, requests: RequestLogEntry[], run: ConnectorRun): void {
  const path = gatewayPath(ctx);
  const lost = requests.find((r) => r.method === "POST" && r.path === path && callsOperation(r, UPDATE) && r.faults.includes(LOST_ANSWER));
  const rows = objects(outputRows<ResultRow>(run, RESULT));
  const id = lost ? callElement(lost, "assignment_id") : null;
  const ch = CHANGES.find((x) => x.assignmentId === id);
  const row = ch && rows.find((r) => r.line === ch.line);
  c.check("lost_answer_reported_applied", !lost || row?.outcome === "applied", {
    basis: { ticket: TRUTH },
    level: "l3",
    detail: !lost ? "no UpdateAssignment answered a fault after PayGrade applied it" : `${id} was applied but its answer was a fault (#${lost.seq}); the result says ${JSON.stringify(row?.outcome)}`,
  });
}

export default defineTask({
  id: "task-0047",
  title: "Meridian Staffing's PayGrade jobs through the SOAP gateway: a nightly copy with deletions, and Finance's rate changes written back once",
  kind: "build",
  roles: { [ROLE]: { vendor: "paygrade", checkpoint: 1 } },
  seed: 47,
  docsProfile: "sparse",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "unified_rpc_gateway_reads_and_writes",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "apply-rates"] },
  outputs: {
    ...mirrorOutputs(MIRRORS.map((m) => m.file)),
    [RESULT]: jsonRows(z.looseObject({ line: z.number().int(), assignment_id: z.string().nullable(), outcome: z.string() })),
  },
  timeLimitS: 45,
  scenarios: [
    {
      // The first night through a failed page and a throttled burst; two weeks later, another night.
      name: "nightly_copy",
      judge: (e, c, ctx) => {
        const first = byLabel(e, "first_sync");
        const files = MIRRORS.map((m) => m.file);
        if (!plumbing(c, "first_sync_exit_ok", first, files, { ticket: SYNC_OK })) return;
        judgeCopy(c, first!, e.snapshots.cp1[ROLE], { match: "first_sync_copy_matches", utc: "first_sync_updated_at_utc" });
        const next = byLabel(e, "next_sync");
        const epochs = e.epochs[ROLE] ?? [];
        const reads = rereads(requestsOf(e, epochs.at(-1)), incrementalLists(ctx), e.snapshots.cp3[ROLE]);
        c.check("next_sync_reads_only_changes", reads.reads > 0 && reads.again.length === 0, {
          basis: { ticket: INCREMENTAL },
          pass: 1,
          mandatory: true,
          level: "l2",
          detail: !reads.reads
            ? "no employee or assignment list was read"
            : reads.again.length
              ? `${reads.again.length} of ${reads.reads} employee or assignment list calls read everything again (${fewIds(reads.again)})`
              : `${reads.reads} list calls, each only for what changed`,
        });
        if (!plumbing(c, "next_sync_exit_ok", next, files, { ticket: SYNC_OK })) return;
        judgeCopy(c, next!, e.snapshots.cp3[ROLE], { match: "next_sync_copy_matches", utc: "next_sync_updated_at_utc" });
      },
    },
    {
      // Finance's file applied through a lost answer, then run again with the same file.
      name: "rate_changes",
      judge: (e, c, ctx) => {
        const before = e.snapshots.before[ROLE];
        const requests = requestsOf(e, (e.epochs[ROLE] ?? []).at(-1));
        const apply = byLabel(e, "apply");
        if (plumbing(c, "apply_exit_ok", apply, [RESULT], { ticket: APPLY_OK })) {
          const after = e.snapshots.after_apply[ROLE];
          judgeResult(c, "apply_result_true", apply!, before, after);
          judgeNothingElse(c, before, after);
          judgeLostAnswer(c, ctx, requests, apply!);
        }
        const rerun = byLabel(e, "rerun");
        if (!plumbing(c, "rerun_exit_ok", rerun, [RESULT], { ticket: APPLY_OK })) return;
        const final = e.snapshots.after_rerun[ROLE];
        judgeOnce(c, "each_change_made_once", ctx, requests, before, final);
        judgeResult(c, "rerun_result_true", rerun!, before, final);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep the app token out of URLs",
    no_secrets_echoed_to_vendor: "keep the app token out of URLs",
    retry_after_honored: WAIT,
    no_hot_loop_on_error: "do not hammer a failing call",
  },
});
