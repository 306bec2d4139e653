import { z } from "zod";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { rereads } from "../shared/gateway-calls.ts";

export const ROLE = "payroll";
/** The fault the first night of `archive` meets (declared in declarations/vendors/paygrade.ts). */
export const BURST_429 = "pg-early-429";
/** The uplift's night: the assignments list moves under the crawl (declared in declarations/vendors/paygrade.ts). */
export const UPLIFT_DRIFT = ["pg-uplift-drift-1", "pg-uplift-drift-2", "pg-uplift-drift-3", "pg-uplift-drift-4"];
/** The closing night: one answer breaks off part-way through its body. */
export const BUSY_NIGHT_RESET = "pg-busy-night-reset";
/**
 * The checkpoints `archive` runs at: it takes over at the first; the second is the night after
 * the yearly rate review, which changes every assignment; by the third some of those assignments
 * are deleted (test/node/task-0051-changed-then-deleted.test.ts holds that for every grading seed);
 * by the last, branches have keyed in two deletions late, dated before every deletion the third
 * night listed (test/node/task-0051-late-deletions.test.ts); by the one after, PayGrade's helpdesk
 * has put back an employee and an assignment deleted weeks before, each already archived
 * (test/node/task-0051-restored.test.ts); by the one after, branches have keyed in a pay award
 * late, dated before every change the night before read; by the last, some of the assignments
 * the award changed are deleted (test/node/task-0051-late-changes.test.ts); by the one after, a pay
 * uplift has changed every assignment, and that night the list moves while it is paged; by the
 * last, forty assignments the uplift changed are deleted (test/node/task-0051-uplift.test.ts), and
 * one answer that night breaks off mid-body.
 */
export const ARCHIVE_NIGHTS = { first: 2, review: 4, final: 5, late: 6, restored: 7, award: 8, afterAward: 9, uplift: 10, closing: 11 } as const;
/** How long before a night a record must have last changed for a list call that reads it again to count as reading the roster again: the ticket's changes keyed "a week or two late" are read again by a careful run. */
const LATE_WINDOW_MS = 28 * 86_400_000;

const ARCHIVE = "closures.json";
/** What the archive keeps: the entities, and the list operation each is read with. */
const KINDS = [
  { entity: "employee", list: "ListEmployees" },
  { entity: "assignment", list: "ListAssignments" },
] as const;

const CLASSIC = "`node src/main.ts archive-classic` is the job as it runs tonight. Leave it working as it is";
const EXIT_OK = "`node src/main.ts archive` exits 0 once `closures.json` is up to date.";
const CARRY_ON = "Its first run carries on from the Classic job's last finished run: it does not read every employee and assignment again, and neither does any later run.";
const LATER = "Later runs read only what changed since the last run that finished.";
const ONCE = "One row per employee and per assignment PayGrade has deleted since the archive began and not put back, each once.";
const PUT_BACK = "A record PayGrade has put back is not deleted any more: from the first run of `archive` after it is back, it has no row in `closures.json`.";
const DELETED_AT = "`deleted_at` is when PayGrade deleted the record, as a UTC instant ending in `Z`. That goes for every row, including the ones the Classic job wrote.";
const LAST_KNOWN = "`last_known` is the record as the archive last read it from PayGrade before it was deleted";
const WAIT = "When PayGrade asks us to wait, wait as long as it asks.";
const LATE_CHANGES = "Our branches key pay changes late too, sometimes a week or two, and PayGrade dates them when they took effect: a `last_known` must not miss a change because it was keyed late.";
const EVERY_CHANGE = "A `last_known` holds every change PayGrade had made to the record by the last run of `archive` that finished before the deletion.";

interface ClosureRow {
  record_type: unknown;
  id: unknown;
  deleted_at: unknown;
  last_known: unknown;
}

/** What the archive should hold for one deleted record. */
interface Expected {
  type: string;
  id: string;
  /** PayGrade's time of deletion (a deleted record's `last_changed` is the moment it was deleted). */
  deletedAt: number;
  lastKnown: Record<string, unknown> | null;
}

/**
 * The deletions the archive should hold at `truth`: every deleted employee and
 * assignment, with the record as the last earlier run's snapshot held it live
 * (`seen`, newest first), or null when no run saw it live.
 */
function expected(truth: Snapshot, seen: Snapshot[]): Expected[] {
  const out: Expected[] = [];
  for (const k of KINDS) {
    for (const r of truth.entities[k.entity] ?? []) {
      if (!r.deleted) continue;
      const last = seen.map((s) => (s.entities[k.entity] ?? []).find((x) => x.id === r.id && !x.deleted)).find((x) => x !== undefined);
      out.push({ type: k.entity, id: r.id, deletedAt: Date.parse(String(r.record.last_changed)), lastKnown: last ? last.record : null });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

const isStamp = (v: unknown): v is string => typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v));

/** Whether a row's last_known is the record: the same fields, the same types, timestamps as the same instants. */
function sameRecord(have: unknown, want: Record<string, unknown>): boolean {
  if (!have || typeof have !== "object" || Array.isArray(have)) return false;
  const h = have as Record<string, unknown>;
  const keys = new Set([...Object.keys(h), ...Object.keys(want)]);
  for (const k of keys) {
    const a = h[k];
    const b = want[k];
    if (isStamp(b) ? !isStamp(a) || Date.parse(a) !== Date.parse(b) : a !== b) return false;
  }
  return true;
}

function judgeArchive(
  c: CheckRecorder,
  run: ConnectorRun,
  truth: Snapshot,
  seen: Snapshot[],
  names: { once: string; deletedAt: string; lastKnown: string },
  lastKnownBasis: string = LAST_KNOWN,
): void {
  const rows = objects(outputRows<ClosureRow>(run, ARCHIVE));
  const want = expected(truth, seen);
  const byId = new Map<string, ClosureRow[]>();
  for (const r of rows) byId.set(String(r.id), [...(byId.get(String(r.id)) ?? []), r]);
  const ids = new Set(want.map((w) => w.id));

  const missing = want.filter((w) => !byId.has(w.id)).map((w) => w.id);
  const twice = [...byId].filter(([, rs]) => rs.length > 1).map(([id, rs]) => `${id} x${rs.length}`);
  const extra = [...byId.keys()].filter((id) => !ids.has(id));
  const mistyped = want.filter((w) => byId.get(w.id)?.some((r) => r.record_type !== w.type)).map((w) => w.id);
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].id) < String(r.id));
  const onceOk = !missing.length && !twice.length && !extra.length && !mistyped.length && sorted;
  c.check(names.once, onceOk, {
    basis: { ticket: ONCE },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: onceOk
      ? `${want.length} deleted records archived once each`
      : [
          missing.length && `${missing.length} deleted records not archived (${fewIds(missing)})`,
          twice.length && `${twice.length} archived more than once (${fewIds(twice)})`,
          extra.length && `${extra.length} rows for records PayGrade has not deleted, or pay runs (${fewIds(extra)})`,
          mistyped.length && `${mistyped.length} rows with the wrong record_type (${fewIds(mistyped)})`,
          !sorted && "not sorted by id",
        ]
          .filter(Boolean)
          .join("; "),
  });

  const present = want.filter((w) => byId.get(w.id)?.length === 1);
  const badTimes = present.filter((w) => {
    const at = byId.get(w.id)![0].deleted_at;
    return typeof at !== "string" || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(at) || Date.parse(at) !== w.deletedAt;
  });
  c.check(names.deletedAt, present.length > 0 && badTimes.length === 0, {
    basis: { ticket: DELETED_AT },
    mandatory: true,
    level: "l1",
    detail: !present.length
      ? "no deleted record is archived"
      : badTimes.length
        ? `${badTimes.length} of ${present.length} rows' deleted_at is not PayGrade's time of deletion in UTC (${fewIds(badTimes.map((w) => `${w.id} ${JSON.stringify(byId.get(w.id)![0].deleted_at)}, PayGrade ${new Date(w.deletedAt).toISOString()}`))})`
        : `${present.length} rows carry PayGrade's time of deletion in UTC`,
  });

  const badCopies = present.filter((w) => {
    const have = byId.get(w.id)![0].last_known;
    return w.lastKnown === null ? have !== null : !sameRecord(have, w.lastKnown);
  });
  c.check(names.lastKnown, present.length > 0 && badCopies.length === 0, {
    basis: { ticket: lastKnownBasis },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: !present.length
      ? "no deleted record is archived"
      : badCopies.length
        ? `${badCopies.length} of ${present.length} rows' last_known is not the record as the archive last read it, with PayGrade's types (${fewIds(badCopies.map((w) => w.id))})`
        : `${present.length} rows hold the record as last read (${present.filter((w) => w.lastKnown === null).length} never seen, null)`,
  });
}

/** The employees and assignments deleted at `before` and live again at `after`: put back by PayGrade. */
function putBackIds(before: Snapshot, after: Snapshot): string[] {
  return KINDS.flatMap((k) => {
    const gone = new Set((before.entities[k.entity] ?? []).filter((r) => r.deleted).map((r) => r.id));
    return (after.entities[k.entity] ?? []).filter((r) => !r.deleted && gone.has(r.id)).map((r) => r.id);
  });
}

const gatewayPath = (ctx: JudgeContext) => ctx.vendors[ROLE].gateways[0]?.path ?? "";

function requestsOf(e: ScenarioEvidence, epoch: number | undefined): RequestLogEntry[] {
  return (e.requests[ROLE] ?? []).filter((r) => r.epoch === epoch).sort((x, y) => x.seq - y.seq);
}

/**
 * The night's truth without the records changed in the late window before it: a run that reads
 * back a window for changes keyed late reads those again, and that is not reading the roster again.
 */
function settled(truth: Snapshot, ctx: JudgeContext, checkpoint: number): Snapshot {
  const clock = ctx.vendors[ROLE].clock;
  const before = Date.parse(clock.epoch) + checkpoint * clock.checkpointSpacingS * 1000 - LATE_WINDOW_MS;
  const entities = Object.fromEntries(Object.entries(truth.entities).map(([k, rs]) => [k, rs.filter((r) => Date.parse(String(r.record.last_changed)) <= before)]));
  return { ...truth, entities };
}

/** How PayGrade's employee and assignment lists filter on changes (the element the API honours, not the one its docs name). */
function incrementalLists(ctx: JudgeContext) {
  return {
    path: gatewayPath(ctx),
    lists: KINDS.map((k) => ({ operation: k.list, entity: k.entity })),
    sinceElement: ctx.vendors[ROLE].incremental?.param ?? "changedSince",
    changedField: "last_changed",
  };
}

function judgeReads(c: CheckRecorder, name: string, basis: string, mandatory: boolean, reads: ReturnType<typeof rereads>): void {
  c.check(name, reads.reads > 0 && reads.again.length === 0, {
    basis: { ticket: basis },
    pass: mandatory ? 2 : 1,
    mandatory,
    level: "l2",
    detail: !reads.reads
      ? "no employee or assignment list was read"
      : reads.again.length
        ? `${reads.again.length} of ${reads.reads} employee or assignment list calls read the roster again (${fewIds(reads.again)})`
        : `${reads.reads} list calls, each only for what changed`,
  });
}

export default defineTask({
  id: "task-0051",
  title: "Lakeshore Labour Hire's PayGrade closure archive moved from a nightly roster diff onto the deletions list, the Classic job's roster and rows carried over",
  kind: "migrate",
  roles: { [ROLE]: { vendor: "paygrade", checkpoint: 1 } },
  seed: 51,
  docsProfile: "sparse",
  surfaces: ["polling"],
  primaryMechanic: "tombstone_semantics_migration",
  entry: { command: ["node", "src/main.ts"], subcommands: ["archive-classic", "archive"] },
  outputs: {
    [ARCHIVE]: jsonRows(z.looseObject({ record_type: z.string(), id: z.string(), deleted_at: z.string(), last_known: z.record(z.string(), z.unknown()).nullable() })),
  },
  timeLimitS: 45,
  scenarios: [
    {
      // Two Classic nights (the second finds deletions); a week later `archive` takes over
      // through a throttled burst; two weeks after that, the night after a rate review that
      // changed every assignment (so that night reads them all); a week later one more night,
      // when some of those assignments are deleted: their last_known is the copy the review's
      // night read; a week after that, a night that finds two deletions branches keyed in late,
      // dated before every deletion the night before it listed; a week after that, a night after
      // PayGrade's helpdesk has put back an employee and an assignment deleted weeks before; a
      // week later, a night after branches keyed in a pay award late (every assignment changed,
      // dated before anything the night before read); a week after that, a night when some of
      // those assignments are deleted: their last_known must carry the award; a week later, a night
      // after a pay uplift changed every assignment, when the list moves under the crawl; a week
      // after that, a night when forty of them are deleted (their last_known carries the uplift)
      // and one answer breaks off mid-body.
      name: "cutover_to_the_deletions_list",
      judge: (e, c, ctx) => {
        const [, , firstEpoch, , finalEpoch] = (e.epochs[ROLE] ?? []).slice(-11);
        if (!plumbing(c, "classic_still_runs", byLabel(e, "classic_last_night"), [ARCHIVE], { ticket: CLASSIC })) return;
        const { cp0, cp1, cp2, cp4, cp5, cp6 } = Object.fromEntries(["cp0", "cp1", "cp2", "cp4", "cp5", "cp6"].map((l) => [l, e.snapshots[l][ROLE]]));

        judgeReads(c, "first_archive_carries_on_from_classic", CARRY_ON, true, rereads(requestsOf(e, firstEpoch), incrementalLists(ctx), settled(cp2, ctx, ARCHIVE_NIGHTS.first)));
        const first = byLabel(e, "first_archive");
        if (!plumbing(c, "first_archive_exit_ok", first, [ARCHIVE], { ticket: EXIT_OK })) return;
        judgeArchive(c, first!, cp2, [cp1, cp0], { once: "first_archive_each_deletion_once", deletedAt: "first_archive_deleted_at_paygrades", lastKnown: "first_archive_last_known_right" });

        // The review's night reads every assignment, each one changed: its reads are not judged.
        const next = byLabel(e, "next_archive");
        if (!plumbing(c, "next_archive_exit_ok", next, [ARCHIVE], { ticket: EXIT_OK })) return;
        judgeArchive(c, next!, cp4, [cp2, cp1, cp0], { once: "next_archive_each_deletion_once", deletedAt: "next_archive_deleted_at_paygrades", lastKnown: "next_archive_last_known_right" });

        judgeReads(c, "final_archive_reads_only_changes", LATER, false, rereads(requestsOf(e, finalEpoch), incrementalLists(ctx), settled(cp5, ctx, ARCHIVE_NIGHTS.final)));
        const final = byLabel(e, "final_archive");
        if (!plumbing(c, "final_archive_exit_ok", final, [ARCHIVE], { ticket: EXIT_OK })) return;
        judgeArchive(c, final!, cp5, [cp4, cp2, cp1, cp0], {
          once: "final_archive_each_deletion_once",
          deletedAt: "final_archive_deleted_at_paygrades",
          lastKnown: "final_archive_last_known_right",
        });

        // A week later: two assignments' deletions keyed in late, dated before every deletion the previous night listed.
        const late = byLabel(e, "late_archive");
        if (!plumbing(c, "late_archive_exit_ok", late, [ARCHIVE], { ticket: EXIT_OK })) return;
        judgeArchive(c, late!, cp6, [cp5, cp4, cp2, cp1, cp0], {
          once: "late_archive_each_deletion_once",
          deletedAt: "late_archive_deleted_at_paygrades",
          lastKnown: "late_archive_last_known_right",
        });

        // A week later: PayGrade's helpdesk has put back an employee and an assignment deleted weeks before.
        const restored = byLabel(e, "restored_archive");
        if (!plumbing(c, "restored_archive_exit_ok", restored, [ARCHIVE], { ticket: EXIT_OK })) return;
        const cp7 = e.snapshots.cp7[ROLE];
        const putBack = putBackIds(cp6, cp7);
        const kept = objects(outputRows<ClosureRow>(restored!, ARCHIVE)).filter((r) => putBack.includes(String(r.id)));
        c.check("restored_archive_put_back_dropped", putBack.length > 0 && kept.length === 0, {
          basis: { ticket: PUT_BACK },
          pass: 2,
          mandatory: true,
          level: "l1",
          detail: !putBack.length
            ? "no record was put back"
            : kept.length
              ? `${kept.length} of ${putBack.length} records PayGrade put back still have a row (${fewIds(kept.map((r) => String(r.id)))})`
              : `${putBack.length} records PayGrade put back have no row`,
        });
        judgeArchive(c, restored!, cp7, [cp6, cp5, cp4, cp2, cp1, cp0], {
          once: "restored_archive_each_deletion_once",
          deletedAt: "restored_archive_deleted_at_paygrades",
          lastKnown: "restored_archive_last_known_right",
        });

        // A week later: branches have keyed in a pay award late, dated when it took effect.
        const award = byLabel(e, "award_archive");
        if (!plumbing(c, "award_archive_exit_ok", award, [ARCHIVE], { ticket: EXIT_OK })) return;
        const cp8 = e.snapshots.cp8[ROLE];
        judgeArchive(c, award!, cp8, [cp7, cp6, cp5, cp4, cp2, cp1, cp0], {
          once: "award_archive_each_deletion_once",
          deletedAt: "award_archive_deleted_at_paygrades",
          lastKnown: "award_archive_last_known_right",
        });

        // A week after that: some assignments the late award changed are deleted; their last_known carries the award.
        const afterAward = byLabel(e, "after_award_archive");
        if (!plumbing(c, "after_award_archive_exit_ok", afterAward, [ARCHIVE], { ticket: EXIT_OK })) return;
        const cp9 = e.snapshots.cp9[ROLE];
        judgeArchive(
          c,
          afterAward!,
          cp9,
          [cp8, cp7, cp6, cp5, cp4, cp2, cp1, cp0],
          {
            once: "after_award_archive_each_deletion_once",
            deletedAt: "after_award_archive_deleted_at_paygrades",
            lastKnown: "after_award_archive_last_known_carries_late_changes",
          },
          LATE_CHANGES,
        );

        // A week later: a pay uplift changed every assignment, keyed in while the night's job read the list.
        const uplift = byLabel(e, "uplift_archive");
        if (!plumbing(c, "uplift_archive_exit_ok", uplift, [ARCHIVE], { ticket: EXIT_OK })) return;
        const cp10 = e.snapshots.cp10[ROLE];
        // A week after that: forty assignments the uplift changed are deleted; their last_known carries the uplift.
        const closing = byLabel(e, "closing_archive");
        if (!plumbing(c, "closing_archive_exit_ok", closing, [ARCHIVE], { ticket: EXIT_OK })) return;
        judgeArchive(
          c,
          closing!,
          e.snapshots.cp11[ROLE],
          [cp10, cp9, cp8, cp7, cp6, cp5, cp4, cp2, cp1, cp0],
          {
            once: "closing_archive_each_deletion_once",
            deletedAt: "closing_archive_deleted_at_paygrades",
            lastKnown: "closing_archive_last_known_has_every_change",
          },
          EVERY_CHANGE,
        );
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "keep the app token out of URLs",
    no_secrets_echoed_to_vendor: "keep the app token out of URLs",
    retry_after_honored: WAIT,
  },
});
