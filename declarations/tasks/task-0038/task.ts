import { z } from "zod";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { type MirrorRow, byLabel, compareRows, expectedRows, fewIds, mirrorOutputs, outputRows } from "../shared/judging.ts";

export const ROLE = "crew";
const ENTITY = "worker";
const COPY = "workers.json";
const CHANGES = "changes.json";
const FILES = [COPY, CHANGES];
/** The checkpoint at which CrewCall renumbers the roster (declarations/vendors/crewcall.ts), and the night before it. */
export const RENUMBERED = 4;
export const BEFORE_MOVE = 3;
/** The renumbering night's long feeds run into a short rate-limit window (declared in declarations/vendors/crewcall.ts). */
export const BURST_429 = "cc-summit-burst-429";

const ChangeRow = z.object({ source_id: z.string(), change: z.enum(["added", "updated", "removed"]) });
type ChangeRow = z.infer<typeof ChangeRow>;

const BASES = {
  copy: { ticket: "After every run the copy matches CrewCall's roster as it is when the run ends." },
  changes: { ticket: "A run reports only what changed since the previous run" },
  firstAdded: { ticket: "On the first run every worker is `added`." },
  quiet: { ticket: "a run when nothing changed in CrewCall writes an empty array." },
  changesOnly: { ticket: "each later run reads only what changed since the previous run" },
};

function timestampFields(ctx: JudgeContext): string[] {
  const resource = ctx.vendors[ROLE].resources.find((r) => r.name === ENTITY)!;
  return resource.fields.filter((f) => f.type === "timestamp").map((f) => f.name);
}

/** A timestamp as an instant (ms), so any ISO 8601 rendering of the same moment compares equal. */
function asInstant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

function normalise(rows: MirrorRow[], timestamps: string[]): MirrorRow[] {
  return rows.map((r) => {
    if (!r || typeof r !== "object" || !r.data || typeof r.data !== "object") return r;
    const data = { ...r.data };
    for (const f of timestamps) if (f in data) data[f] = asInstant(data[f]);
    return { ...r, data, updated_at: asInstant(r.updated_at) };
  });
}

/** Ids live in a snapshot. */
function live(s: Snapshot | undefined): Set<string> {
  return new Set((s?.entities[ENTITY] ?? []).filter((r) => !r.deleted).map((r) => r.id));
}

/** The copy after a run against the roster at `truth`, every worker the job could have copied before (`seen`) kept. */
function judgeCopy(c: CheckRecorder, name: string, run: ConnectorRun | undefined, truth: Snapshot, seen: Set<string>, timestamps: string[]): void {
  const raw = outputRows(run, COPY) ?? [];
  const expected = new Map([...expectedRows(truth, ENTITY, { updatedField: "updated_at", seen }).values()].map((r) => [r.source_id, normalise([r], timestamps)[0]]));
  const cmp = compareRows(normalise(raw, timestamps), expected);
  const counts = new Map<string, number>();
  for (const r of raw) if (r && typeof r === "object") counts.set(String(r.source_id), (counts.get(String(r.source_id)) ?? 0) + 1);
  const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  c.check(name, cmp.ok && twice.length === 0, {
    basis: BASES.copy,
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: twice.length ? `${twice.length} workers appear more than once (${fewIds(twice)})` : cmp.detail,
  });
}

/** The change rows a run between the roster at `before` (null: the first run) and at `after` must write. */
function expectedChanges(before: Snapshot | null, after: Snapshot): Set<string> {
  const out = new Set<string>();
  const was = new Map((before?.entities[ENTITY] ?? []).filter((r) => !r.deleted).map((r) => [r.id, r]));
  for (const r of after.entities[ENTITY] ?? []) {
    const prior = was.get(r.id);
    if (r.deleted) {
      if (prior) out.add(`${r.id}:removed`);
    } else if (!prior) out.add(`${r.id}:added`);
    else if (JSON.stringify(prior.record) !== JSON.stringify(r.record)) out.add(`${r.id}:updated`);
  }
  return out;
}

/** A run's changes.json against the rows it must hold. */
function judgeChanges(c: CheckRecorder, name: string, run: ConnectorRun | undefined, want: Set<string>, basis: { ticket: string }, pass: 1 | 2 = 2): void {
  const rows = (outputRows<ChangeRow>(run, CHANGES) ?? []).filter((r) => r && typeof r === "object");
  const got = rows.map((r) => `${r.source_id}:${r.change}`);
  const have = new Set(got);
  const missing = [...want].filter((k) => !have.has(k));
  const extra = [...have].filter((k) => !want.has(k));
  const repeated = got.length - have.size;
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].source_id) <= String(r.source_id));
  const ok = !missing.length && !extra.length && !repeated && sorted;
  const counts = (keys: string[]) => ["added", "updated", "removed"].map((k) => `${keys.filter((x) => x.endsWith(`:${k}`)).length} ${k}`).join(", ");
  c.check(name, ok, {
    basis,
    pass,
    fail: 0,
    mandatory: true,
    detail: ok
      ? want.size
        ? `${want.size} change rows (${counts([...want])})`
        : "an empty array, as nothing changed"
      : [
          missing.length && `${missing.length} missing (${fewIds(missing)})`,
          extra.length && `${extra.length} not changes of this run (${fewIds(extra)})`,
          repeated && `${repeated} repeated`,
          !sorted && "not sorted by source_id",
        ]
          .filter(Boolean)
          .join("; "),
  });
}

/**
 * Whether a later run read only what changed since the previous run: every roster list call of
 * its epoch carries `changed_since`, and the instant it asks from selects at most twice the
 * workers that changed between the two runs, plus ten (an inclusive filter hands back the
 * boundary's rows again, and a watermark may overlap a little). A run that lists the whole
 * roster, or asks from so early that most of it comes back, reads the roster again.
 */
function readsChangesOnly(c: CheckRecorder, name: string, e: ScenarioEvidence, ctx: JudgeContext, epoch: number | undefined, before: Snapshot, after: Snapshot, what: string): void {
  const vendor = ctx.vendors[ROLE];
  const list = vendor.resources.find((r) => r.name === ENTITY)!.list!;
  const param = vendor.incremental?.param ?? "";
  const field = vendor.incremental?.field ?? "updated_at";
  const calls = (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch && r.method === "GET" && r.path === list && r.status < 400);
  const changed = expectedChanges(before, after).size;
  const bound = 2 * changed + 10;
  const liveTimes = (after.entities[ENTITY] ?? []).filter((r) => !r.deleted).map((r) => Date.parse(String(r.record[field])));
  const wide: string[] = [];
  for (const r of calls) {
    const raw = r.query[param];
    const mark = raw === undefined ? Number.NaN : Date.parse(raw);
    if (raw === undefined) wide.push(`#${r.seq} without ${param}`);
    else if (Number.isNaN(mark)) wide.push(`#${r.seq} ${param}=${raw} is not a time`);
    else {
      const selected = liveTimes.filter((t) => t >= mark).length;
      if (selected > bound) wide.push(`#${r.seq} ${param}=${raw} selects ${selected} workers for ${changed} changes`);
    }
  }
  c.check(name, calls.length > 0 && wide.length === 0, {
    basis: BASES.changesOnly,
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l2",
    detail: !calls.length
      ? `no roster list call ${what}`
      : wide.length
        ? `${wide.length} of ${calls.length} roster list calls ${what} read more than changed: ${wide.slice(0, 3).join("; ")}`
        : `${calls.length} roster list calls ${what}, each through ${param} from the previous run (${changed} changes)`,
  });
}

export default defineTask({
  id: "task-0038",
  title: "CrewCall roster sync after the tenant was renumbered: a worker-id high-water mark skipped every re-imported worker",
  kind: "fix",
  roles: { [ROLE]: { vendor: "crewcall", checkpoint: 0 } },
  seed: 7,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "nonmonotonic_id_watermark_reset",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: { ...mirrorOutputs([COPY]), [CHANGES]: jsonRows(ChangeRow) },
  timeLimitS: 30,
  scenarios: [
    {
      // An ordinary night: sign-ups, updates and onboarding steps. The fix must keep it working.
      name: "ordinary_night",
      judge: (e, c, ctx) => {
        const ts = timestampFields(ctx);
        if (!commandsRanOk(c, "ordinary_commands_ran", e, ["first", "night"], FILES)) return;
        const cp0 = e.snapshots.cp0[ROLE];
        const cp1 = e.snapshots.cp1[ROLE];
        judgeCopy(c, "first_copy_matches", byLabel(e, "first"), cp0, live(cp0), ts);
        judgeChanges(c, "first_changes_all_added", byLabel(e, "first"), expectedChanges(null, cp0), BASES.firstAdded, 1);
        judgeCopy(c, "night_copy_matches", byLabel(e, "night"), cp1, live(cp0), ts);
        judgeChanges(c, "night_changes_match", byLabel(e, "night"), expectedChanges(cp0, cp1), BASES.changes);
        readsChangesOnly(c, "night_reads_changes_only", e, ctx, (e.epochs[ROLE] ?? []).at(-1), cp0, cp1, "on the ordinary night");
      },
    },
    {
      // The night CrewCall renumbers the roster (every worker deleted, re-imported with numbers
      // below the old ones, all at one instant) and throttles the key part-way, then a night when
      // nothing changes. A watermark taken from the newest `updated_at` seen asks the inclusive
      // filter for that instant again, and it hands back the whole re-imported roster; CrewCall's
      // docs say to take the watermark from X-CrewCall-Time.
      name: "renumbered_roster",
      judge: (e, c, ctx) => {
        const ts = timestampFields(ctx);
        if (!commandsRanOk(c, "renumbered_commands_ran", e, ["before_move", "after_move", "quiet"], FILES)) return;
        const before = e.snapshots.before_move[ROLE];
        const after = e.snapshots.after_move[ROLE];
        const seen = live(before);
        judgeCopy(c, "renumbered_copy_matches", byLabel(e, "after_move"), after, seen, ts);
        judgeChanges(c, "renumbered_changes_match", byLabel(e, "after_move"), expectedChanges(before, after), BASES.changes);
        judgeCopy(c, "quiet_copy_matches", byLabel(e, "quiet"), after, seen, ts);
        judgeChanges(c, "quiet_run_reports_nothing", byLabel(e, "quiet"), new Set(), BASES.quiet, 1);
        // The quiet night has a log epoch of its own (drive.ts): nothing changed, so next to nothing is read.
        readsChangesOnly(c, "quiet_run_reads_changes_only", e, ctx, (e.epochs[ROLE] ?? []).at(-1), after, after, "on the quiet night");
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials are in the environment",
    no_secrets_echoed_to_vendor: "Credentials are in the environment",
    retry_after_honored: "When it asks the job to wait, wait as long as it asks and carry on",
  },
});
