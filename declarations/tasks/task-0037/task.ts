import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";

/** StaffLine, the ATS being left (read only), and Bullpen, the one moved to. */
export const LEGACY = "legacy";
export const ATS = "ats";
const MAP = "candidate-map.json";
const BRANCH = "TOR";
const SOURCE = "import";

/**
 * Faults of the cut-over week (declared in declarations/vendors/bullpen.ts): the seventh
 * registration answers 504 after Bullpen stored it, and a burst of calls is throttled with
 * the wait in the body only.
 */
export const ATS_FAULTS = ["bp-create-504-after-commit", "bp-burst-429"];

/** StaffLine fields copied, as Bullpen names them. */
const FIELD_MAP = [
  ["first_name", "first_name"],
  ["last_name", "last_name"],
  ["email", "email"],
  ["city", "city"],
  ["phone", "mobile_phone"],
  ["desired_title", "current_title"],
] as const;

const Row = z.looseObject({
  staffline_id: z.string(),
  bullpen_id: z.string(),
  deleted_in_staffline: z.boolean(),
});
type Row = z.infer<typeof Row>;

const EXIT_OK = "`migrate` exits 0 when every candidate it should copy is in Bullpen and the map below is written";
const MAP_TRUE = "`candidate-map.json` tells the truth about every copy";
const ONCE = "A candidate is copied once, ever.";
const NO_STAFFLINE_WRITES = "Nothing is written to StaffLine, by any run.";
const FIELDS_BASIS = "Every StaffLine candidate that is not deleted and has not been copied yet is registered in Bullpen (`createCandidate`), with `branch` `TOR` and `source` `import`";

const records = (s: Snapshot | undefined, entity: string): SnapshotRecord[] => s?.entities[entity] ?? [];
const liveIds = (s: Snapshot | undefined, entity: string) =>
  new Set(
    records(s, entity)
      .filter((r) => !r.deleted)
      .map((r) => r.id),
  );
const value = (v: unknown) => (v === undefined || v === "" ? null : v);

/** Bullpen candidates at `now` that were not there at `start`. */
const created = (start: Snapshot | undefined, now: Snapshot | undefined) => {
  const had = new Set(records(start, "candidate").map((r) => r.id));
  return records(now, "candidate").filter((r) => !had.has(r.id));
};

/** A copy Bullpen should hold after a run: the StaffLine candidate, its record as copied, and whether StaffLine has deleted it since. */
interface Want {
  staffline_id: string;
  source: Record<string, unknown>;
  deleted_in_staffline: boolean;
}

const byId = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
const liveRecords = (s: Snapshot | undefined) =>
  new Map(
    records(s, "candidate")
      .filter((r) => !r.deleted)
      .map((r) => [r.id, r.record] as const),
  );

function wants(sources: Map<string, Record<string, unknown>>, legacyNow: Snapshot): Want[] {
  const live = liveIds(legacyNow, "candidate");
  return [...sources.entries()].sort(byId).map(([id, source]) => ({ staffline_id: id, source, deleted_in_staffline: !live.has(id) }));
}

/** A person as StaffLine has them, in Bullpen's names: what a copy carries (namesakes share an email, not all of it). */
const personKey = (fields: Record<string, unknown>, side: 0 | 1) => JSON.stringify(FIELD_MAP.map((pair) => value(fields[pair[side]])));

/** Which new Bullpen candidates copy which StaffLine one: those registered with its fields. */
function copiesOf(want: Want[], newOnes: SnapshotRecord[]) {
  const byPerson = new Map<string, SnapshotRecord[]>();
  for (const r of newOnes) byPerson.set(personKey(r.record, 1), [...(byPerson.get(personKey(r.record, 1)) ?? []), r]);
  return new Map(want.map((w) => [w.staffline_id, byPerson.get(personKey(w.source, 0)) ?? []]));
}

/** What is wrong with Bullpen's new candidates against `want`; a run that stopped before the end (`partial`) may have left some out. */
function copyProblems(want: Want[], newOnes: SnapshotRecord[], partial = false): string[] {
  const copies = copiesOf(want, newOnes);
  const people = new Set(want.map((w) => personKey(w.source, 0)));
  const missing = partial ? [] : want.filter((w) => !copies.get(w.staffline_id)?.length).map((w) => w.staffline_id);
  const twice = want.filter((w) => (copies.get(w.staffline_id)?.length ?? 0) > 1).map((w) => `${w.staffline_id} x${copies.get(w.staffline_id)!.length}`);
  const stray = newOnes.filter((r) => !people.has(personKey(r.record, 1))).map((r) => `${r.id} (${String(r.record.email)})`);
  const wrong = want.flatMap((w) => {
    const copy = copies.get(w.staffline_id)?.[0];
    const bad = [copy && copy.record.branch !== BRANCH && "branch", copy && copy.record.source !== SOURCE && "source"].filter(Boolean);
    return copy && bad.length ? [`${w.staffline_id} -> ${copy.id} (${bad.join(", ")})`] : [];
  });
  return [
    missing.length && `${missing.length} of ${want.length} StaffLine candidates not in Bullpen with their fields as copied (${fewIds(missing)})`,
    twice.length && `${twice.length} registered more than once (${fewIds(twice)})`,
    stray.length && `${stray.length} other candidates registered in Bullpen, or copies with fields other than StaffLine's (${fewIds(stray)})`,
    wrong.length && `${wrong.length} copies with wrong fields: ${wrong.slice(0, 3).join("; ")}`,
  ].filter((p): p is string => typeof p === "string");
}

const rowsOf = (run: ConnectorRun | undefined): Row[] | null => {
  const raw = outputRows<unknown>(run, MAP);
  if (!raw) return null;
  const rows = raw.map((r) => Row.safeParse(r).data);
  return rows.every((r) => r !== undefined) ? (rows as Row[]) : null;
};

function mapProblems(rows: Row[] | null, want: Want[], newOnes: SnapshotRecord[]): string[] {
  if (!rows) return ["candidate-map.json is missing or has rows without staffline_id, bullpen_id and deleted_in_staffline"];
  const copies = copiesOf(want, newOnes);
  const got = new Map(rows.map((r) => [r.staffline_id, r]));
  const missing = want.filter((w) => !got.has(w.staffline_id)).map((w) => w.staffline_id);
  const extra = rows.filter((r) => !want.some((w) => w.staffline_id === r.staffline_id)).map((r) => r.staffline_id);
  const wrongId: string[] = [];
  const wrongDeleted: string[] = [];
  for (const w of want) {
    const r = got.get(w.staffline_id);
    if (!r) continue;
    const ids = (copies.get(w.staffline_id) ?? []).map((c) => c.id);
    if (!ids.includes(r.bullpen_id)) wrongId.push(`${w.staffline_id} (${r.bullpen_id}, Bullpen's copy ${ids.join("/") || "none"})`);
    if (r.deleted_in_staffline !== w.deleted_in_staffline) wrongDeleted.push(`${w.staffline_id} (${r.deleted_in_staffline}, want ${w.deleted_in_staffline})`);
  }
  const sorted = rows.map((r) => r.staffline_id).join(",") === [...rows.map((r) => r.staffline_id)].sort().join(",");
  return [
    missing.length && `${missing.length} copied candidates missing (${fewIds(missing)})`,
    extra.length && `${extra.length} rows for candidates that are not copies (${fewIds(extra)})`,
    rows.length !== got.size && `${rows.length - got.size} repeated rows`,
    wrongId.length && `${wrongId.length} rows with a wrong bullpen_id: ${wrongId.slice(0, 3).join("; ")}`,
    wrongDeleted.length && `${wrongDeleted.length} rows with a wrong deleted_in_staffline: ${wrongDeleted.slice(0, 3).join("; ")}`,
    !sorted && "not sorted by staffline_id",
  ].filter((p): p is string => typeof p === "string");
}

function judgeCutover(e: ScenarioEvidence, c: CheckRecorder): void {
  const writes = (e.requests[LEGACY] ?? []).filter((r) => r.method !== "GET" && r.method !== "HEAD");
  c.check("staffline_not_written", writes.length === 0, {
    basis: { ticket: NO_STAFFLINE_WRITES },
    pass: 1,
    mandatory: true,
    level: "l2",
    detail: writes.length ? `${writes.length} writes sent to StaffLine (first: #${writes[0].seq} ${writes[0].method} ${writes[0].path})` : "StaffLine was only read",
  });

  // The cut-over night: the scheduler may stop the run before it is done; what it registered must be right, and all of it when it exited 0.
  const first = byLabel(e, "cutover_night");
  if (!first) return;
  const legacy0 = e.snapshots.before[LEGACY];
  const ats0 = e.snapshots.before[ATS];
  const want0 = wants(liveRecords(legacy0), legacy0);
  const new0 = created(ats0, e.snapshots.cutover[ATS]);
  const finished = first.exitCode === 0;
  const night1 = copyProblems(want0, new0, !finished);
  c.check("cutover_copied_right", night1.length === 0, {
    basis: { ticket: FIELDS_BASIS },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      night1.join("; ") ||
      `${want0.filter((w) => copiesOf(want0, new0).get(w.staffline_id)?.length).length} of ${want0.length} StaffLine candidates in Bullpen once each${finished ? "" : ` (the run ${first.timedOut ? "was stopped" : `exited ${first.exitCode}`} before the end)`}`,
  });

  // The nights after: those copied before (as they were copied) and everyone StaffLine has at the run's start; nobody it deleted before they were copied.
  const copies0 = copiesOf(want0, new0);
  const sources = new Map(want0.filter((w) => copies0.get(w.staffline_id)?.length).map((w) => [w.staffline_id, w.source] as const));
  for (const night of LATER_NIGHTS) {
    const run = byLabel(e, night.label);
    if (!plumbing(c, `${night.label}_exit_ok`, run, [MAP], { ticket: EXIT_OK })) return;
    const legacy = e.snapshots[night.start]?.[LEGACY];
    for (const [id, record] of liveRecords(legacy)) if (!sources.has(id)) sources.set(id, record);
    const want = wants(sources, legacy);
    const news = created(ats0, e.snapshots[night.end]?.[ATS]);
    const copies = copyProblems(want, news);
    c.check(night.copied, copies.length === 0, {
      basis: { ticket: ONCE },
      pass: 2,
      mandatory: true,
      level: "l3",
      detail: copies.join("; ") || `${want.length} StaffLine candidates in Bullpen once each, fields as copied`,
    });
    const map = mapProblems(rowsOf(run), want, news);
    c.check(night.map, map.length === 0, {
      basis: { ticket: MAP_TRUE },
      pass: 2,
      mandatory: true,
      detail: map.join("; ") || `${want.length} rows, ${want.filter((w) => w.deleted_in_staffline).length} deleted in StaffLine`,
    });
  }
}

/** The runs after the cut-over night, each judged on Bullpen and the map when it ends. */
const LATER_NIGHTS = [
  { label: "next_night", start: "next_start", end: "next", copied: "cutover_copied_once", map: "next_map_true" },
  { label: "third_night", start: "third_start", end: "third", copied: "third_copied_once", map: "third_map_true" },
];

export default defineTask({
  id: "task-0037",
  title: "Harrow & Vale's replatform from StaffLine to Bullpen: candidates back-filled once across runs, StaffLine never written after the cut-over",
  kind: "migrate",
  roles: { [LEGACY]: { vendor: "staffline", checkpoint: 0 }, [ATS]: { vendor: "bullpen", checkpoint: 0 } },
  seed: 3,
  docsProfile: "stale",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "post_cutover_write_routing_exclusivity",
  entry: { command: ["node", "src/main.ts"], subcommands: ["migrate"] },
  outputs: { [MAP]: jsonRows(Row) },
  timeLimitS: 90,
  scenarios: [{ name: "replatform_backfill", judge: (e, c) => judgeCutover(e, c) }],
  conduct: {
    no_credentials_in_query_string: "credentials in headers, never in URLs",
    no_secrets_echoed_to_vendor: "credentials in headers, never in URLs",
    retry_after_honored: "wait as long as a vendor asks when it asks us to slow down",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "A run that fails halfway, and every later run, must not register again someone an earlier run already registered, even when Bullpen did not answer.",
  },
});
