import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { windowStyle } from "../../../mechanics/windows/index.ts";
import { DAY_MS, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import input from "./repo/input/audit-periods.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";

export const ROLE = "ats";
const LEDGER = "ledger.json";
const PERIODS = "periods.json";
const FILES = [LEDGER, PERIODS];
/** The ledger's entity, as GlobalHire names it. */
const ENTITY = "activity";
/** The fields a ledger row copies from GlobalHire as they are. */
const COPIED = ["kind", "placement_id", "candidate_id", "agency_id", "branch", "amount_cents"] as const;
/** A rate-limit window on the activity list, declared in declarations/vendors/globalhire.ts. */
export const ACTIVITY_429 = "gh-activity-429";

interface Period {
  id: string;
  fromMs: number;
  toMs: number;
}

const PERIOD_LIST: Period[] = input.periods.map((p) => ({ id: p.period_id, fromMs: Date.parse(p.starts_at), toMs: Date.parse(p.ends_at) }));

/** An ISO 8601 instant that says where it is (`Z` or an offset), in ms; null for anything else. */
function instant(v: unknown): number | null {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v.trim())) return null;
  const ms = Date.parse(v.trim());
  return Number.isNaN(ms) ? null : ms;
}

/** The `YYYY-MM-DDTHH:MM:SSZ` form the ticket asks for. */
const utc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** What the judges read of the activity list from GlobalHire's declaration. */
interface LedgerApi {
  list: string;
  field: string;
  from: string;
  to: string;
  capMs: number;
}

function ledgerApi(ctx: JudgeContext): LedgerApi {
  const r = ctx.vendors[ROLE].resources.find((x) => x.name === ENTITY)!;
  const w = r.window!;
  const style = windowStyle(w);
  const { from, to } = style.params(w as never);
  return { list: r.list!, field: style.field(w as never), from, to, capMs: style.maxSpanDays(w as never) * DAY_MS };
}

/** One entry a period must list. */
interface Want {
  period: string;
  id: string;
  ms: number;
  voided: boolean;
  record: Record<string, unknown>;
}

/** The entries of every period in a snapshot, periods in the input's order, each by time then id. */
function expected(s: Snapshot, api: LedgerApi): Want[] {
  const out: Want[] = [];
  for (const p of PERIOD_LIST) {
    const rows: Want[] = [];
    for (const r of s.entities[ENTITY] ?? []) {
      const ms = instant(r.record[api.field]);
      if (ms !== null && ms >= p.fromMs && ms < p.toMs) rows.push({ period: p.id, id: r.id, ms, voided: r.deleted, record: r.record });
    }
    rows.sort((a, b) => a.ms - b.ms || (a.id < b.id ? -1 : 1));
    out.push(...rows);
  }
  return out;
}

interface LedgerRow {
  period_id?: unknown;
  activity_id?: unknown;
  occurred_at?: unknown;
  status?: unknown;
  [field: string]: unknown;
}

/** How a run's ledger.json compares with what it had to hold. Keys are `period/activity_id`. */
interface LedgerVerdict {
  rows: number;
  missing: string[];
  extra: string[];
  twice: string[];
  malformed: number;
  wrongFields: string[];
  notUtc: string[];
  wrongStatus: string[];
  outOfOrder: boolean;
}

const keyOf = (period: unknown, id: unknown) => `${String(period)}/${String(id)}`;

function judgeLedger(run: ConnectorRun, want: Want[]): LedgerVerdict {
  const rows = outputRows<LedgerRow>(run, LEDGER) ?? [];
  const byKey = new Map(want.map((w) => [keyOf(w.period, w.id), w]));
  const v: LedgerVerdict = { rows: rows.length, missing: [], extra: [], twice: [], malformed: 0, wrongFields: [], notUtc: [], wrongStatus: [], outOfOrder: false };
  const seen = new Set<string>();
  const order: string[] = [];
  for (const row of rows) {
    if (!row || typeof row !== "object" || typeof row.activity_id !== "string" || typeof row.period_id !== "string") {
      v.malformed += 1;
      continue;
    }
    const key = keyOf(row.period_id, row.activity_id);
    if (seen.has(key)) {
      v.twice.push(key);
      continue;
    }
    seen.add(key);
    order.push(key);
    const w = byKey.get(key);
    if (!w) {
      v.extra.push(key);
      continue;
    }
    if (COPIED.some((f) => (row[f] ?? null) !== (w.record[f] ?? null))) v.wrongFields.push(key);
    if (row.occurred_at !== utc(w.ms)) v.notUtc.push(`${key} ${JSON.stringify(row.occurred_at)}`);
    if (row.status !== (w.voided ? "voided" : "posted")) v.wrongStatus.push(`${key} ${JSON.stringify(row.status)}`);
  }
  for (const key of byKey.keys()) if (!seen.has(key)) v.missing.push(key);
  // The rows it holds must come in the order the wanted ones do.
  const rank = new Map(want.map((w, i) => [keyOf(w.period, w.id), i]));
  const ranks = order.filter((k) => rank.has(k)).map((k) => rank.get(k)!);
  v.outOfOrder = ranks.some((r, i) => i > 0 && r < ranks[i - 1]);
  return v;
}

/** The periods.json rows a snapshot calls for, in the input's order. */
function expectedPeriods(want: Want[]): Record<string, unknown>[] {
  return PERIOD_LIST.map((p) => {
    const rows = want.filter((w) => w.period === p.id);
    const posted = rows.filter((w) => !w.voided);
    const byKind: Record<string, number> = {};
    for (const w of posted) byKind[String(w.record.kind)] = (byKind[String(w.record.kind)] ?? 0) + 1;
    return {
      period_id: p.id,
      starts_at: utc(p.fromMs),
      ends_at: utc(p.toMs),
      entries: rows.length,
      posted: posted.length,
      voided: rows.length - posted.length,
      posted_amount_cents: posted.reduce((sum, w) => sum + (typeof w.record.amount_cents === "number" ? w.record.amount_cents : 0), 0),
      posted_by_kind: Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => (a < b ? -1 : 1))),
    };
  });
}

/** Keys sorted at every level, so equal JSON compares equal whatever its key order. */
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, stable(x)]),
    );
  return v;
}

/** The periods of periods.json that differ from what they should say. */
function judgePeriods(run: ConnectorRun, want: Want[]): string[] {
  const rows = outputRows<Record<string, unknown>>(run, PERIODS) ?? [];
  const wanted = expectedPeriods(want);
  const out: string[] = [];
  if (rows.length !== wanted.length) out.push(`${rows.length} rows for ${wanted.length} periods`);
  wanted.forEach((w, i) => {
    const row = rows[i];
    if (!row || typeof row !== "object") return;
    const wrong = Object.keys(w).filter((k) => JSON.stringify(stable(row[k])) !== JSON.stringify(stable(w[k])));
    if (wrong.length) out.push(`${String(w.period_id)}: ${wrong.map((k) => `${k} ${JSON.stringify(row[k])}, not ${JSON.stringify(w[k])}`).join(", ")}`);
  });
  return out;
}

function ledgerProblems(v: LedgerVerdict, parts: ("missing" | "extra" | "twice" | "malformed")[]): string[] {
  const labels = { missing: "entries missing", extra: "rows that belong to no period (or to another)", twice: "rows listed twice" } as const;
  const out: string[] = [];
  for (const p of parts) {
    if (p === "malformed") {
      if (v.malformed) out.push(`${v.malformed} malformed rows`);
    } else if (v[p].length) out.push(`${v[p].length} ${labels[p]} (${fewIds(v[p])})`);
  }
  return out;
}

const runOf = (e: ScenarioEvidence, label: string) => e.runs.find((r) => r.label === label);
const epochRequests = (e: ScenarioEvidence, epoch: number | undefined) => (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch).sort((a, b) => a.seq - b.seq);

/** The window a served activity request covered: as asked, cut to the real cap. */
function servedWindow(r: RequestLogEntry, api: LedgerApi): { fromMs: number; toMs: number } | null {
  const fromMs = instant(r.query[api.from]);
  const toMs = instant(r.query[api.to]);
  if (fromMs === null || toMs === null || toMs <= fromMs) return null;
  return { fromMs, toMs: Math.min(toMs, fromMs + api.capMs) };
}

/** The parts of each period no served window covered, as `period from..to` strings. */
function uncovered(windows: { fromMs: number; toMs: number }[]): string[] {
  const out: string[] = [];
  const sorted = [...windows].sort((a, b) => a.fromMs - b.fromMs);
  for (const p of PERIOD_LIST) {
    let at = p.fromMs;
    for (const w of sorted) {
      if (w.toMs <= at || w.fromMs >= p.toMs) continue;
      if (w.fromMs > at) out.push(`${p.id} ${utc(at)}..${utc(Math.min(w.fromMs, p.toMs))}`);
      at = Math.max(at, w.toMs);
      if (at >= p.toMs) break;
    }
    if (at < p.toMs) out.push(`${p.id} ${utc(at)}..${utc(p.toMs)}`);
  }
  return out;
}

/** Records the checks of one run's two files against a snapshot; returns whether both were right. */
function judgeFiles(c: CheckRecorder, run: ConnectorRun, want: Want[]): void {
  const v = judgeLedger(run, want);
  const covers = ledgerProblems(v, ["missing"]);
  c.check("ledger_covers_every_entry", covers.length === 0, {
    basis: { ticket: "Every entry of every period appears exactly once; nothing outside the periods appears." },
    pass: 2,
    mandatory: true,
    detail: covers.length ? covers.join("; ") : `every one of the ${want.length} entries of the ${PERIOD_LIST.length} periods is in its period`,
  });
  const extra = ledgerProblems(v, ["extra", "twice", "malformed"]);
  c.check("ledger_holds_nothing_else", extra.length === 0, {
    basis: { ticket: "Every entry of every period appears exactly once; nothing outside the periods appears." },
    pass: 1,
    mandatory: true,
    detail: extra.length ? extra.join("; ") : `${v.rows} rows, each once, each in its own period`,
  });
  c.check("ledger_rows_match_globalhire", v.wrongFields.length === 0 && v.rows > 0, {
    basis: { ticket: "`kind`, `placement_id`, `candidate_id`, `agency_id`, `branch` and `amount_cents` are GlobalHire's values (`amount_cents` may be `null`)." },
    pass: 1,
    detail: v.wrongFields.length ? `${v.wrongFields.length} rows differ from GlobalHire in ${COPIED.join("/")} (${fewIds(v.wrongFields)})` : `${v.rows} rows carry GlobalHire's values`,
  });
  c.check("occurred_at_in_utc", v.notUtc.length === 0 && v.rows > 0, {
    basis: { ticket: "written exactly as `YYYY-MM-DDTHH:MM:SSZ`: the auditors' tooling compares these as text." },
    pass: 1,
    level: "l2",
    detail: v.notUtc.length ? `${v.notUtc.length} rows not in UTC as YYYY-MM-DDTHH:MM:SSZ (${fewIds(v.notUtc)})` : "every occurred_at is the UTC instant GlobalHire recorded",
  });
  const voided = want.filter((w) => w.voided).length;
  c.check("voided_entries_marked", v.wrongStatus.length === 0 && v.rows > 0, {
    basis: { ticket: "`status` is `voided` for an entry GlobalHire has voided (deleted) and `posted` otherwise." },
    pass: 1,
    mandatory: true,
    level: "l2",
    detail: v.wrongStatus.length ? `${v.wrongStatus.length} rows with the wrong status (${fewIds(v.wrongStatus)})` : `${voided} voided entries marked voided, the rest posted`,
  });
  c.check("ledger_in_period_order", !v.outOfOrder && v.rows > 0, {
    basis: { ticket: "periods in the order of the input file, and within a period by `occurred_at` (then `activity_id`)" },
    pass: 1,
    detail: v.outOfOrder ? "rows are not in input period order, then occurred_at, then activity_id" : "rows in the order asked",
  });
  const totals = judgePeriods(run, want);
  c.check("period_totals_tie_out", totals.length === 0, {
    basis: { ticket: "the totals tie out" },
    pass: 2,
    mandatory: true,
    detail: totals.length ? totals.slice(0, 3).join(" | ") : "every period's counts, amount and kinds tie out",
  });
}

export default defineTask({
  id: "task-0013",
  title: "GlobalHire activity ledger in audit periods: time windows cut to 7 days where the docs say 30, branch offsets to UTC, voided entries kept",
  kind: "build",
  roles: { [ROLE]: { vendor: "globalhire", checkpoint: 2 } },
  seed: 13,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "time_window_chunked_queries",
  entry: { command: ["node", "src/main.ts"], subcommands: ["audit"] },
  outputs: {
    [LEDGER]: jsonRows(
      z.looseObject({ period_id: z.string(), activity_id: z.string(), occurred_at: z.string(), kind: z.string(), amount_cents: z.number().nullable(), status: z.enum(["posted", "voided"]) }),
    ),
    [PERIODS]: jsonRows(
      z.looseObject({
        period_id: z.string(),
        starts_at: z.string(),
        ends_at: z.string(),
        entries: z.number().int(),
        posted: z.number().int(),
        voided: z.number().int(),
        posted_amount_cents: z.number(),
        posted_by_kind: z.record(z.string(), z.number().int()),
      }),
    ),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // The audit cut through a rate-limit window on the ledger; the same cut again; then a cut
      // after GlobalHire voided more entries.
      name: "audit_cycle",
      judge: (e, c, ctx) => {
        const api = ledgerApi(ctx);
        const audit = runOf(e, "audit");
        const cp2 = e.snapshots.cp2?.[ROLE];
        if (!plumbing(c, "audit_exit_ok", audit, FILES, { ticket: "Exit 0 only when every period is complete" }) || !audit || !cp2) return;
        const want = expected(cp2, api);
        judgeFiles(c, audit, want);

        // Conduct: the windows GlobalHire served the audit run covered every period, and the run
        // read the ledger where the periods are, not its whole history.
        const served = epochRequests(e, cp2.epoch).filter((r) => r.method === "GET" && r.path === api.list && r.status === 200);
        if (served.length) {
          const windows = served.map((r) => servedWindow(r, api)).filter((w): w is { fromMs: number; toMs: number } => w !== null);
          const gaps = uncovered(windows);
          c.check("served_windows_cover_every_period", gaps.length === 0, {
            basis: { vendor: "GlobalHire serves at most 7 days of the ledger per request, whatever window is asked (its documentation says 30)" },
            level: "l3",
            detail: gaps.length
              ? `${gaps.length} stretches of the periods no served window covered (GlobalHire serves at most ${api.capMs / DAY_MS} days a request): ${gaps.slice(0, 2).join("; ")}`
              : `${windows.length} served windows cover every period`,
          });
          const outside = windows.filter((w) => !PERIOD_LIST.some((p) => w.fromMs < p.toMs && w.toMs > p.fromMs));
          const least = PERIOD_LIST.reduce((n, p) => n + Math.ceil((p.toMs - p.fromMs) / api.capMs), 0);
          const tooMany = served.length > 2 * least + 2;
          c.check("reads_only_what_the_periods_need", outside.length === 0 && !tooMany, {
            basis: { ticket: "read only the parts of the ledger the periods need" },
            level: "l2",
            detail: outside.length
              ? `${outside.length} ledger reads outside every period (from ${utc(outside[0].fromMs)})`
              : tooMany
                ? `${served.length} ledger reads where ${least} windows cover the periods`
                : `${served.length} ledger reads for ${least} windows`,
          });
        }

        const rerun = runOf(e, "rerun");
        if (plumbing(c, "rerun_exit_ok", rerun, FILES, { ticket: "Exit 0 only when every period is complete" }) && rerun) {
          const same = FILES.filter((f) => JSON.stringify(outputRows(audit, f)) !== JSON.stringify(outputRows(rerun, f)));
          c.check("rerun_reproduces_the_files", same.length === 0, {
            basis: { ticket: "Running the job twice against the same GlobalHire data must produce identical files." },
            pass: 1,
            level: "l2",
            detail: same.length ? `${same.join(" and ")} differ between two runs over the same data` : "the rerun wrote the same files",
          });
        }

        const later = runOf(e, "after_voids");
        const cp3 = e.snapshots.cp3?.[ROLE];
        if (plumbing(c, "after_voids_exit_ok", later, FILES, { ticket: "Exit 0 only when every period is complete" }) && later && cp3) {
          const want3 = expected(cp3, api);
          const v = judgeLedger(later, want3);
          const problems = [...ledgerProblems(v, ["missing", "extra", "twice", "malformed"])];
          if (v.wrongStatus.length) problems.push(`${v.wrongStatus.length} rows with the wrong status (${fewIds(v.wrongStatus)})`);
          problems.push(...judgePeriods(later, want3));
          const newlyVoided = want3.filter((w) => w.voided && !want.some((x) => x.id === w.id && x.voided)).length;
          c.check("later_run_shows_new_voids", problems.length === 0, {
            basis: { ticket: "When the ledger changes between runs (GlobalHire voids an entry), the next run's files show it." },
            pass: 1,
            level: "l2",
            detail: problems.length ? problems.slice(0, 3).join(" | ") : `the later run matches GlobalHire again (${newlyVoided} entries voided since the first cut)`,
          });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep the key out of URLs",
    no_secrets_echoed_to_vendor: "keep the key out of URLs",
    retry_after_honored: "wait as long as GlobalHire asks when it asks us to slow down",
    resume_not_restart_after_5xx: "retry a failed request rather than the whole run",
  },
});
