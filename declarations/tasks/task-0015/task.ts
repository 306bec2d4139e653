import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckLevel, ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { type MirrorRow, compareRows, expectedRows, fewIds, outputRows, plumbing, mirrorOutputs, outputProblem } from "../shared/judging.ts";
import { jsonDocument } from "../../schema/output-contract.ts";
import { z } from "zod";

export const ROLE = "ats";
/** The resources the ticket asks for, in the report's order (the vendor's resource names). */
const ENTITIES = ["agency", "candidate", "placement", "timesheet"];
const MIRROR_FILES = ["agencies.json", "candidates.json", "placements.json", "timesheets.json"];
const REPORT = "sync_report.json";
/** Faults the scenarios arm (declared in declarations/vendors/globalhire.ts). */
export const RATE_WINDOW = "gh-second-request-429";

/** What the judges need of one resource, read from the vendor's declaration and a snapshot. */
interface EntityApi {
  name: string;
  /** The name the ticket and the report use (`timesheets`). */
  plural: string;
  file: string;
  /** The current list and, when the vendor still serves one, the older version's. */
  lists: string[];
  /** Query parameter that sets the page size (left out when comparing pages). */
  limitParam: string;
  updated: string;
  timestamps: string[];
  /** Records of the resource in the snapshot, archived ones included. */
  total: number;
  archived: number;
  /** The current list skips records between pages, and the resource needs more than one page. */
  currentListShort: boolean;
  /** The older list stops before the end of this resource. */
  legacyListShort: boolean;
}

function entityApis(ctx: JudgeContext, truth: Snapshot): EntityApi[] {
  const vendor = ctx.vendors[ROLE];
  return ENTITIES.map((name, i) => {
    const r = vendor.resources.find((x) => x.name === name)!;
    const paging = r.paging ?? vendor.paging;
    const records = truth.entities[name] ?? [];
    return {
      name,
      plural: r.plural,
      file: MIRROR_FILES[i],
      lists: [r.list!, ...(r.legacyList ? [r.legacyList.path] : [])],
      limitParam: "limitParam" in paging ? paging.limitParam : "limit",
      updated: r.fields.find((f) => f.gen.gen === "updatedAt")!.name,
      timestamps: r.fields.filter((f) => f.type === "timestamp").map((f) => f.name),
      total: records.length,
      archived: records.filter((x) => x.deleted).length,
      currentListShort: !!r.skipsAtPageBoundary && records.length > paging.maxLimit,
      legacyListShort: r.legacyList?.truncateAt !== undefined && records.length > r.legacyList.truncateAt,
    };
  });
}

/** An ISO 8601 instant that says where it is (`Z` or an offset), in ms; null for anything else. */
function instant(v: unknown): number | null {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v.trim())) return null;
  const ms = Date.parse(v.trim());
  return Number.isNaN(ms) ? null : ms;
}

/** A timestamp as an instant, so any rendering of the same moment compares equal. */
const asInstant = (v: unknown): unknown => instant(v) ?? v;

function normalise(rows: MirrorRow[], api: EntityApi): MirrorRow[] {
  return rows.map((r) => {
    if (!r || typeof r !== "object" || !r.data || typeof r.data !== "object") return r;
    const data = { ...r.data };
    for (const f of api.timestamps) if (f in data) data[f] = asInstant(data[f]);
    return { ...r, data, updated_at: asInstant(r.updated_at) };
  });
}

/** Every record of the resource, archived ones included (GlobalHire lists them, the mirror keeps them flagged). */
function expected(truth: Snapshot, api: EntityApi): Map<string, MirrorRow> {
  const all = new Set((truth.entities[api.name] ?? []).map((r) => r.id));
  const rows = expectedRows(truth, api.name, { updatedField: api.updated, seen: all });
  return new Map(normalise([...rows.values()], api).map((r) => [r.source_id, r]));
}

/** How one mirror file compares with the truth. */
function mirrorProblem(run: ConnectorRun, truth: Snapshot, api: EntityApi): { ok: boolean; detail: string } {
  const rows = outputRows(run, api.file);
  if (!rows) return { ok: false, detail: outputProblem(run, api.file) ?? `${api.file} holds no rows` };
  const cmp = compareRows(normalise(rows, api), expected(truth, api));
  return { ok: cmp.ok, detail: `${api.file}: ${cmp.detail}` };
}

/**
 * One check per mirror, mandatory. The resource whose current list loses
 * records is the l3 one (read it from the older list); the one whose older
 * list stops early is l2 (read it from the current one); the rest are l1.
 */
function judgeMirrors(c: CheckRecorder, run: ConnectorRun, truth: Snapshot, apis: EntityApi[]): void {
  for (const api of apis) {
    const { ok, detail } = mirrorProblem(run, truth, api);
    const level: CheckLevel = api.currentListShort ? "l3" : api.legacyListShort ? "l2" : "l1";
    c.check(`${api.plural}_mirror_matches`, ok, {
      basis: { ticket: "Every night's run leaves four complete mirrors that match GlobalHire record for record" },
      pass: level === "l1" ? 1 : 2,
      fail: 0,
      mandatory: true,
      level,
      detail,
    });
  }
  const twice: string[] = [];
  for (const api of apis) {
    const counts = new Map<string, number>();
    for (const r of outputRows(run, api.file) ?? []) if (r && typeof r === "object") counts.set(String(r.source_id), (counts.get(String(r.source_id)) ?? 0) + 1);
    for (const [id, n] of counts) if (n > 1) twice.push(`${id} x${n}`);
  }
  c.check("mirror_rows_unique", twice.length === 0, {
    basis: { ticket: "`source_id` is GlobalHire's id; each record appears once." },
    pass: 1,
    fail: 0,
    mandatory: true,
    detail: twice.length ? `${twice.length} records appear more than once (${fewIds(twice)})` : "each record once in its mirror",
  });
}

/** Every timestamp the mirrors carry is a UTC instant ending in `Z` (the values themselves are judged by the mirror checks). */
function judgeUtc(c: CheckRecorder, run: ConnectorRun, apis: EntityApi[]): void {
  const offenders: string[] = [];
  let seen = 0;
  for (const api of apis) {
    for (const r of outputRows(run, api.file) ?? []) {
      if (!r || typeof r !== "object") continue;
      const values: [string, unknown][] = [["updated_at", r.updated_at]];
      if (r.data && typeof r.data === "object") for (const f of api.timestamps) if (r.data[f] !== null && r.data[f] !== undefined) values.push([`data.${f}`, r.data[f]]);
      for (const [field, v] of values) {
        seen += 1;
        if (typeof v !== "string" || instant(v) === null || !v.trim().endsWith("Z")) offenders.push(`${r.source_id}.${field}=${String(v)}`);
      }
    }
  }
  c.check("timestamps_in_utc", seen > 0 && offenders.length === 0, {
    basis: { ticket: "The lake's loader only accepts UTC: every timestamp, in `updated_at` and in `data`, must be an ISO 8601 instant ending in `Z`, the same instant GlobalHire gave." },
    pass: 1,
    fail: 0,
    level: "l2",
    detail: offenders.length ? `${offenders.length} of ${seen} timestamps not in UTC (${fewIds(offenders)})` : `${seen} timestamps, all UTC`,
  });
}

interface ReportEntry {
  resource?: unknown;
  read_from?: unknown;
  records?: unknown;
  archived?: unknown;
}

function readReport(run: ConnectorRun): { resources: ReportEntry[]; v1: unknown } | null {
  const out = run.outputs[REPORT];
  if (!out?.present || !out.parsed || !out.value || typeof out.value !== "object" || Array.isArray(out.value)) return null;
  const v = out.value as { resources?: unknown; v1_dependencies?: unknown };
  if (!Array.isArray(v.resources)) return null;
  return { resources: v.resources as ReportEntry[], v1: v.v1_dependencies };
}

/** The report's counts, in the ticket's order, match the truth. */
function countsProblem(report: { resources: ReportEntry[] }, apis: EntityApi[]): string | null {
  const names = report.resources.map((e) => (e && typeof e === "object" ? e.resource : undefined));
  if (JSON.stringify(names) !== JSON.stringify(apis.map((a) => a.plural))) return `resources listed as ${JSON.stringify(names)}, expected ${apis.map((a) => a.plural).join(", ")} in that order`;
  const wrong = apis.flatMap((api, i) => {
    const e = report.resources[i];
    return e.records === api.total && e.archived === api.archived
      ? []
      : [`${api.plural}: ${String(e.records)} records / ${String(e.archived)} archived, GlobalHire holds ${api.total} / ${api.archived}`];
  });
  return wrong.length ? wrong.join("; ") : null;
}

/** The resources whose current list, paged to its end, does not return all of them. */
function v1Problem(report: { v1: unknown }, apis: EntityApi[]): string | null {
  const want = apis
    .filter((a) => a.currentListShort)
    .map((a) => a.plural)
    .sort();
  if (!Array.isArray(report.v1)) return "v1_dependencies is missing or not an array";
  const got = report.v1.map(String);
  return JSON.stringify(got) === JSON.stringify(want) ? null : `v1_dependencies is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
}

/** The report's counts, v1 dependencies and sources, judged against the truth and against the run's own traffic. */
function judgeReport(c: CheckRecorder, run: ConnectorRun, apis: EntityApi[], reads: RequestLogEntry[]): void {
  const report = readReport(run);
  const counts = report ? countsProblem(report, apis) : (outputProblem(run, REPORT) ?? `${REPORT} has no resources array`);
  c.check("report_counts_match", counts === null, {
    basis: { ticket: "`records` is the number of rows in its mirror file and `archived` how many of them are `is_deleted`." },
    pass: 1,
    fail: 0,
    detail: counts ?? `${apis.map((a) => `${a.plural} ${a.total}`).join(", ")}`,
  });
  const v1 = report ? v1Problem(report, apis) : `no readable ${REPORT} (report_counts_match says why)`;
  c.check("v1_dependencies_reported", v1 === null, {
    basis: { ticket: "the resources whose v2 list endpoint, paged to its end as GlobalHire documents it, does not return every record of the resource, sorted by name." },
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l3",
    detail:
      v1 ??
      `v1_dependencies lists ${
        apis
          .filter((a) => a.currentListShort)
          .map((a) => a.plural)
          .join(", ") || "nothing"
      }`,
  });
  // read_from names only list paths of that resource, each of which the run really read.
  const served = new Set(reads.filter((r) => r.status === 200).map((r) => r.path));
  const untrue: string[] = [];
  for (const api of apis) {
    const e = report?.resources.find((x) => x && typeof x === "object" && x.resource === api.plural);
    const paths = e && Array.isArray(e.read_from) ? e.read_from.map(String) : null;
    if (!paths?.length) untrue.push(`${api.plural}: no read_from`);
    else for (const p of paths) if (!api.lists.includes(p) || !served.has(p)) untrue.push(`${api.plural}: ${p} ${api.lists.includes(p) ? "was never read" : "is not one of its lists"}`);
  }
  c.check("report_sources_truthful", untrue.length === 0, {
    basis: { ticket: "`read_from` lists the API paths whose answers the mirror of that resource was built from" },
    pass: 1,
    fail: 0,
    level: "l2",
    detail: untrue.length ? fewIds(untrue) : "every read_from path was read",
  });
}

/** The list reads of one epoch: GETs of any list path of the mirrored resources. */
function listReads(e: ScenarioEvidence, apis: EntityApi[], epoch: number): RequestLogEntry[] {
  const paths = new Set(apis.flatMap((a) => a.lists));
  return (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch && r.method === "GET" && paths.has(r.path)).sort((a, b) => a.seq - b.seq);
}

/**
 * Conduct (evidence-guarded): no page of any list is served twice in one run.
 * A page is its path and query without the page size; a crawl that starts
 * again asks for a first page it already had.
 */
function judgeReadOnce(c: CheckRecorder, reads: RequestLogEntry[], apis: EntityApi[], what: string): void {
  if (!reads.length) return;
  const limitOf = new Map(apis.flatMap((a) => a.lists.map((p) => [p, a.limitParam] as const)));
  const seen = new Map<string, number>();
  const again: string[] = [];
  for (const r of reads.filter((x) => x.status === 200)) {
    const limit = limitOf.get(r.path);
    const query = Object.entries(r.query)
      .filter(([k]) => k !== limit)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    const key = `${r.path} ${JSON.stringify(query)}`;
    if (seen.has(key)) again.push(`#${r.seq} ${r.path}${query.length ? `?${query.map(([k, v]) => `${k}=${v}`).join("&")}` : ""} (first #${seen.get(key)})`);
    else seen.set(key, r.seq);
  }
  c.check("each_list_read_once", again.length === 0, {
    basis: { ticket: "Read each list endpoint at most once per run (retrying a request that failed is fine; reading the same pages again is not)." },
    pass: 1,
    fail: 0,
    level: "l2",
    detail: again.length ? `${what}: ${again.length} pages served again (${fewIds(again)})` : `${what}: ${seen.size} pages, each read once`,
  });
}

export default defineTask({
  id: "task-0015",
  title: "GlobalHire nightly mirror across the v1/v2 split: v1 stops early for candidates, v2 skips timesheets between pages",
  kind: "build",
  roles: { [ROLE]: { vendor: "globalhire", checkpoint: 1 } },
  seed: 15,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "split_brain_dual_versions",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: {
    ...mirrorOutputs(MIRROR_FILES),
    [REPORT]: jsonDocument(
      z.looseObject({
        resources: z.array(z.looseObject({ resource: z.string(), read_from: z.array(z.string()), records: z.number().int(), archived: z.number().int() })),
        v1_dependencies: z.array(z.string()),
      }),
    ),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // One night on a tenant with archived candidates: four mirrors and the report.
      name: "nightly_mirror",
      judge: (e, c, ctx) => {
        const truth = e.snapshots.cp1[ROLE];
        const apis = entityApis(ctx, truth);
        const run = e.runs[0];
        const reads = listReads(e, apis, truth.epoch);
        judgeReadOnce(c, reads, apis, "the night's run");
        if (!plumbing(c, "sync_exit_ok", run, MIRROR_FILES, { ticket: "Exit 0 only when all four mirrors are complete and the files are written." })) return;
        judgeMirrors(c, run, truth, apis);
        judgeUtc(c, run, apis);
        judgeReport(c, run, apis, reads);
      },
    },
    {
      // The next night: a day of changes (new, changed and archived records), and GlobalHire
      // asks the job to slow down right after its first request.
      name: "next_night_rate_limited",
      judge: (e, c, ctx) => {
        const truth = e.snapshots.cp2[ROLE];
        const apis = entityApis(ctx, truth);
        const [first, next] = e.runs;
        plumbing(c, "first_night_exit_ok", first, MIRROR_FILES, { ticket: "Exit 0 only when all four mirrors are complete and the files are written." });
        const reads = listReads(e, apis, truth.epoch);
        judgeReadOnce(c, reads, apis, "the next night's run");
        if (!plumbing(c, "next_night_exit_ok", next, MIRROR_FILES, { ticket: "Exit 0 only when all four mirrors are complete and the files are written." })) return;
        const problems = apis.map((api) => mirrorProblem(next, truth, api)).filter((p) => !p.ok);
        c.check("next_night_mirrors_match", problems.length === 0, {
          basis: { ticket: "Every night's run leaves four complete mirrors that match GlobalHire record for record" },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: problems.length ? problems.map((p) => p.detail).join("; ") : `${apis.map((a) => `${a.plural} ${a.total}`).join(", ")} match`,
        });
        const report = readReport(next);
        const problem = report ? (countsProblem(report, apis) ?? v1Problem(report, apis)) : (outputProblem(next, REPORT) ?? `${REPORT} has no resources array`);
        c.check("next_night_report_matches", problem === null, {
          basis: { ticket: "a report whose counts and v1 dependencies are true" },
          pass: 1,
          fail: 0,
          level: "l2",
          detail: problem ?? "counts and v1 dependencies match GlobalHire",
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep the API key out of URLs",
    no_secrets_echoed_to_vendor: "keep the API key out of URLs",
    retry_after_honored: "When GlobalHire asks us to wait, wait as long as it asks",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
  },
});
