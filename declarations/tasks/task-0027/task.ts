import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { type MirrorRow, byLabel, compareRows, expectedRows, fewIds, mirrorOutputs, outputRows, plumbing } from "../shared/judging.ts";

export const ROLE = "ats";
/** Faults the scenario arms (declared in declarations/vendors/bullpen.ts). */
export const TOKEN_RETIRED = "bp-app-token-retired";
export const CUTOVER_429 = "bp-cutover-429";

const ENTITIES = [
  { entity: "candidate", file: "candidates.json" },
  { entity: "application", file: "applications.json" },
] as const;
const FILES = ENTITIES.map((e) => e.file);

const CLASSIC = "`node src/main.ts classic-sync` is the job as it runs tonight. Leave it working as it is";
const EXIT_OK = "`node src/main.ts sync` exits 0 once both files are up to date.";
const CARRY_ON = "The first run of `sync` carries on from where the Classic job's last finished run left off: it does not read everything again";
const NO_APP_TOKEN = "`sync` never sends the app token";
const MATCH = "After every run of `sync` that exits 0, both files match Bullpen as it stands at that moment";
const ONCE = "Each record appears once in its file.";

/** The vendor's record reads: its REST list paths (current and older versions) and its gateway's search operations. */
function api(ctx: JudgeContext) {
  const vendor = ctx.vendors[ROLE];
  const lists = new Set(vendor.resources.flatMap((r) => [r.list, r.legacyList?.path].filter((p): p is string => !!p)));
  const gateways = vendor.gateways.map((g) => ({ path: g.path, searches: g.operations.filter((o) => o.action === "list").map((o) => o.name) }));
  const legacyHeader = vendor.auth.legacy?.name.toLowerCase() ?? "";
  return { lists, gateways, since: vendor.incremental?.param ?? "", legacyHeader };
}
type Api = ReturnType<typeof api>;

/** Whether a request read a list, through REST or a gateway's search operation, and whether it filtered on changes. */
function listRead(r: RequestLogEntry, a: Api): { filtered: boolean } | null {
  if (r.method === "GET" && a.lists.has(r.path)) return { filtered: r.query[a.since] !== undefined };
  const g = a.gateways.find((x) => x.path === r.path);
  if (!g || r.method !== "POST") return null;
  const body = typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? "");
  if (!g.searches.some((op) => body.includes(`"${op}"`))) return null;
  return { filtered: body.includes(`<${a.since}>`) || body.includes(`<${a.since} `) };
}

function asInstant(v: unknown): unknown {
  if (typeof v !== "string" || !/^\d{4}-\d{2}-\d{2}T/.test(v)) return v;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? v : ms;
}

function normalise(r: MirrorRow): MirrorRow {
  if (!r || typeof r !== "object" || !r.data || typeof r.data !== "object") return r;
  return { ...r, data: Object.fromEntries(Object.entries(r.data).map(([k, v]) => [k, asInstant(v)])), updated_at: asInstant(r.updated_at) };
}

function live(s: Snapshot | undefined, entity: string): Set<string> {
  return new Set((s?.entities[entity] ?? []).filter((r) => !r.deleted).map((r) => r.id));
}

/** Both files against a snapshot; records deleted that the job had seen live must be kept as deleted, others deleted may be left out. */
function judgeMirror(c: CheckRecorder, run: ConnectorRun, truth: Snapshot, seenAt: Snapshot[], names: { match: string; once: string }): void {
  const problems: string[] = [];
  const twice: string[] = [];
  let total = 0;
  for (const { entity, file } of ENTITIES) {
    const raw = outputRows(run, file) ?? [];
    const seen = new Set(seenAt.flatMap((s) => [...live(s, entity)]));
    const optional = new Set((truth.entities[entity] ?? []).filter((r) => r.deleted && !seen.has(r.id)).map((r) => r.id));
    const actual = raw.filter((r) => !(r && typeof r === "object" && optional.has(String(r.source_id)) && r.is_deleted === true)).map(normalise);
    const expected = new Map([...expectedRows(truth, entity, { updatedField: "modified_at", seen }).entries()].map(([id, r]) => [id, normalise(r)]));
    const cmp = compareRows(actual, expected);
    if (!cmp.ok) problems.push(`${file}: ${cmp.detail}`);
    total += expected.size;
    const counts = new Map<string, number>();
    for (const r of raw) if (r && typeof r === "object") counts.set(String(r.source_id), (counts.get(String(r.source_id)) ?? 0) + 1);
    twice.push(...[...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`));
  }
  c.check(names.match, problems.length === 0, {
    basis: { ticket: MATCH },
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l3",
    detail: problems.length ? problems.join("; ") : `${total} rows across ${FILES.length} files match`,
  });
  c.check(names.once, twice.length === 0, {
    basis: { ticket: ONCE },
    pass: 1,
    fail: 0,
    mandatory: true,
    detail: twice.length ? `${twice.length} records appear more than once (${fewIds(twice)})` : "each record once",
  });
}

function requestsOf(e: ScenarioEvidence, epoch: number | undefined): RequestLogEntry[] {
  return (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch).sort((x, y) => x.seq - y.seq);
}

export default defineTask({
  id: "task-0027",
  title: "Kestrel Staffing's Bullpen sync off the retired app token: OAuth, the Classic job's state carried over, and a v2 list that drops submittals",
  kind: "migrate",
  roles: { [ROLE]: { vendor: "bullpen", checkpoint: 0 } },
  seed: 5,
  docsProfile: "stale",
  surfaces: ["polling"],
  primaryMechanic: "auth_mechanism_sunset_state_preservation",
  entry: { command: ["node", "src/main.ts"], subcommands: ["classic-sync", "sync"] },
  outputs: mirrorOutputs(FILES),
  timeLimitS: 60,
  scenarios: [
    {
      // The Classic job's last good night; the next night Bullpen retires the app token under it;
      // the night after, `sync` takes over (through a rate-limit window); then one more night.
      name: "cutover_off_the_app_token",
      judge: (e, c, ctx) => {
        const a = api(ctx);
        const [, , firstEpoch, nextEpoch] = (e.epochs[ROLE] ?? []).slice(-4);
        if (!plumbing(c, "classic_sync_still_runs", byLabel(e, "classic_last_good_night"), FILES, { ticket: CLASSIC })) return;

        const first = byLabel(e, "first_sync");
        const firstReads = requestsOf(e, firstEpoch)
          .map((r) => ({ r, read: listRead(r, a) }))
          .filter((x) => x.read !== null);
        const unfiltered = firstReads.filter((x) => !x.read!.filtered);
        c.check("first_sync_carries_on_from_classic_state", firstReads.length > 0 && unfiltered.length === 0, {
          basis: { ticket: CARRY_ON },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: !firstReads.length
            ? "the first sync read no list"
            : unfiltered.length
              ? `${unfiltered.length} of ${firstReads.length} list reads carry no ${a.since} (first: #${unfiltered[0].r.seq} ${unfiltered[0].r.method} ${unfiltered[0].r.path}): the Classic job's state was not carried over`
              : `${firstReads.length} list reads, each with ${a.since}`,
        });

        const withToken = [...requestsOf(e, firstEpoch), ...requestsOf(e, nextEpoch)].filter((r) => a.legacyHeader && r.headers[a.legacyHeader] !== undefined);
        c.check("sync_sends_no_app_token", withToken.length === 0, {
          basis: { ticket: NO_APP_TOKEN },
          pass: 1,
          fail: 0,
          mandatory: true,
          level: "l2",
          detail: withToken.length ? `${withToken.length} requests of sync carry ${a.legacyHeader} (first: #${withToken[0].seq} ${withToken[0].path})` : "no request of sync carries the app token",
        });

        if (!plumbing(c, "first_sync_exit_ok", first, FILES, { ticket: EXIT_OK })) return;
        const cp0 = e.snapshots.cp0[ROLE];
        const cp2 = e.snapshots.cp2[ROLE];
        judgeMirror(c, first!, cp2, [cp0], { match: "first_sync_mirror_matches", once: "first_sync_no_duplicate_rows" });

        const next = byLabel(e, "next_sync");
        const nextReads = requestsOf(e, nextEpoch)
          .map((r) => listRead(r, a))
          .filter((x) => x !== null);
        c.check("next_sync_reads_only_changes", nextReads.length > 0 && nextReads.every((x) => x.filtered), {
          basis: { ticket: "later runs read only what changed since the last run that finished" },
          pass: 1,
          fail: 0,
          level: "l2",
          detail: `${nextReads.filter((x) => x.filtered).length} of ${nextReads.length} list reads filtered on ${a.since}`,
        });
        if (!plumbing(c, "next_sync_exit_ok", next, FILES, { ticket: EXIT_OK })) return;
        judgeMirror(c, next!, e.snapshots.cp3[ROLE], [cp0, cp2], { match: "next_sync_mirror_matches", once: "next_sync_no_duplicate_rows" });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "When Bullpen asks us to wait, wait as long as it asks",
    no_full_resync_after_incremental: "later runs read only what changed since the last run that finished",
  },
});
