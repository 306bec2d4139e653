import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { CheckBasis, ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { compareRows, expectedRows, fewIds, liveIds, outputRows, plumbing, type MirrorRow, mirrorOutputs, byLabel } from "../shared/judging.ts";
import queue from "./repo/input/follow-ups.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { deliveries, deliveryChecks } from "../shared/deliveries.ts";
import { droppedDeletes, unconfirmedRemovals } from "../shared/dropped-deletes.ts";

export const ROLE = "ats";
const HUB = ["candidates.json", "applications.json"];
const RESULT = "writeback_result.json";
const ENTITIES = [
  { entity: "candidate", file: "candidates.json" },
  { entity: "application", file: "applications.json" },
] as const;
const NOTE_WRITE = "createNote";
const NOTES_PATH = /^\/v1\/candidates\/[^/]+\/notes$/;

/**
 * Faults of the incident day (declared in declarations/vendors/talentloop.ts): the webhooks
 * come duplicated and reversed, with forged and stale deliveries, and one candidate delete and
 * one application delete are never delivered; the poll meets a 500 on the second candidates
 * page and a token revoked in the middle of the applications; the second note TalentLoop
 * commits answers 500.
 */
export const INCIDENT_FAULTS = [
  "tl-duplicate-storm",
  "tl-reversed-burst",
  "tl-forged-delivery",
  "tl-stale-delivery",
  "tl-drop-first-candidate-delete",
  "tl-drop-first-application-delete",
  "tl-candidates-500-page-2",
  "tl-token-revoked-mid-applications",
  "tl-note-500-after-commit",
];
/** Faults of the catch-up after an outage: the poll's own trouble, no webhooks at all. */
export const OUTAGE_FAULTS = ["tl-candidates-500-page-2", "tl-token-revoked-mid-applications"];

/** One follow-up of Nudge's queue (`repo/input/follow-ups.json`). */
interface FollowUp {
  client_ref: string;
  candidate_id: string;
  author: string;
  body: string;
}

/** One row of writeback_result.json, as the ticket defines it. */
interface ResultRow {
  client_ref?: unknown;
  candidate_id?: unknown;
  status?: unknown;
  note_id?: unknown;
  detail?: unknown;
}

type Status = "delivered" | "candidate_deleted" | "candidate_missing" | "rejected";

const FOLLOW_UPS: FollowUp[] = queue;

/** The note a follow-up becomes, as the ticket spells it. */
const noteBody = (f: FollowUp) => `${f.body}\n\n[Nudge ${f.client_ref}]`;

/** Rows of an output file, objects only. */
function rows<T = MirrorRow>(run: ConnectorRun | undefined, file: string): T[] {
  return (outputRows<T>(run, file) ?? []).filter((r) => r !== null && typeof r === "object");
}

function deletedIds(s: Snapshot, entity: string): Set<string> {
  return new Set((s.entities[entity] ?? []).filter((r) => r.deleted).map((r) => r.id));
}

/** Records live in `before` and deleted in `after`. */
function deletedBetween(before: Snapshot, after: Snapshot, entity: string): string[] {
  const held = liveIds(before, entity);
  return [...deletedIds(after, entity)].filter((id) => held.has(id));
}

/**
 * A hub file against the truth. `held` are the records the hub had live copies of: those
 * TalentLoop deleted since must be removed rows. A record deleted before the hub ever held it
 * may be a removed row or no row; a live row is wrong. `skip` ids are left out of the comparison.
 */
function compareHub(actual: MirrorRow[], truth: Snapshot, entity: string, held: Set<string>, skip: Set<string> = new Set()) {
  const gone = deletedIds(truth, entity);
  const kept = actual.filter((r) => !skip.has(String(r.source_id)) && !(r.is_deleted === true && gone.has(String(r.source_id)) && !held.has(String(r.source_id))));
  const want = expectedRows(truth, entity, { updatedField: "updated_at", seen: held });
  for (const id of skip) want.delete(id);
  return compareRows(kept, want);
}

function hubMatches(
  c: CheckRecorder,
  name: string,
  run: ConnectorRun | undefined,
  truth: Snapshot,
  held: Record<string, Set<string>>,
  opts: { pass: 1 | 2; level: "l1" | "l3"; basis: CheckBasis },
): void {
  const problems: string[] = [];
  for (const { entity, file } of ENTITIES) {
    const cmp = compareHub(rows(run, file), truth, entity, held[entity]);
    if (!cmp.ok) problems.push(`${file}: ${cmp.detail}`);
  }
  c.check(name, problems.length === 0, {
    basis: opts.basis,
    pass: opts.pass,
    fail: 0,
    mandatory: true,
    level: opts.level,
    detail: problems.length ? problems.join("; ") : "candidates and applications match TalentLoop",
  });
}

const heldAt = (s: Snapshot): Record<string, Set<string>> => Object.fromEntries(ENTITIES.map(({ entity }) => [entity, liveIds(s, entity)]));

/**
 * Rows that were live in `before` and removed in `after` must each have been confirmed by
 * TalentLoop in the scenario's last epoch: a read of the record by id answering 410.
 * Recorded when such rows exist, or always with `always` (whether a dropped delete hits a
 * record the hub held depends on the seed).
 */
function removalsConfirmed(c: CheckRecorder, name: string, e: ScenarioEvidence, ctx: JudgeContext, before: ConnectorRun | undefined, after: ConnectorRun | undefined, always = false): void {
  const { marked, unconfirmed } = unconfirmedRemovals(e, ROLE, ctx.vendors[ROLE], ENTITIES, { before, after }, [410]);
  if (!marked.length && !always) return;
  c.check(name, unconfirmed.length === 0, {
    basis: { ticket: "Mark a record deleted only once TalentLoop has said so for that record." },
    level: "l2",
    detail: unconfirmed.length
      ? `${unconfirmed.length} of ${marked.length} rows marked removed without a read of the record answering 410 (${fewIds(unconfirmed)})`
      : `${marked.length} removals each confirmed by a read of the record`,
  });
}

/**
 * The results TalentLoop's state allows for each follow-up. TalentLoop validates a note before
 * it looks at the candidate, so a note it cannot take on a candidate it does not hold may be
 * reported either way.
 */
function allowedStatuses(ctx: JudgeContext, truth: Snapshot): Map<string, Set<Status>> {
  const write = ctx.vendors[ROLE]?.writes.find((w) => w.name === NOTE_WRITE);
  const limit = (field: string) => write?.inputs.find((i) => i.name === field)?.maxLength ?? Number.POSITIVE_INFINITY;
  const byId = new Map((truth.entities.candidate ?? []).map((r) => [r.id, r]));
  return new Map(
    FOLLOW_UPS.map((f) => {
      const invalid = noteBody(f).length > limit("body") || !f.author || f.author.length > limit("author");
      const r = byId.get(f.candidate_id);
      const absent: Status | null = !r ? "candidate_missing" : r.deleted ? "candidate_deleted" : null;
      const allowed = new Set<Status>();
      if (invalid) allowed.add("rejected");
      if (absent) allowed.add(absent);
      if (!allowed.size) allowed.add("delivered");
      return [f.client_ref, allowed];
    }),
  );
}

/** Notes created on TalentLoop since `start`, live ones only. */
function newNotes(start: Snapshot, now: Snapshot): SnapshotRecord[] {
  const existed = new Set((start.entities.note ?? []).map((r) => r.id));
  return (now.entities.note ?? []).filter((r) => !existed.has(r.id) && !r.deleted);
}

/** Notes of one follow-up: on its candidate, carrying its text. */
const notesOf = (notes: SnapshotRecord[], f: FollowUp) => notes.filter((n) => n.record.candidate_id === f.candidate_id && n.record.body === noteBody(f));

/** The result file against what TalentLoop holds: one row per follow-up, sorted, each status allowed, each note id the note's. */
function resultChecks(c: CheckRecorder, prefix: string, run: ConnectorRun | undefined, allowed: Map<string, Set<Status>>, notes: SnapshotRecord[], opts: { mandatory: boolean; pass: 1 | 2 }): void {
  const got = rows<ResultRow>(run, RESULT);
  const wrongStatus: string[] = [];
  const wrongIds: string[] = [];
  for (const f of FOLLOW_UPS) {
    const mine = got.filter((r) => r.client_ref === f.client_ref);
    const want = allowed.get(f.client_ref)!;
    if (mine.length !== 1) {
      wrongStatus.push(`${f.client_ref}: ${mine.length} rows`);
      wrongIds.push(`${f.client_ref}: ${mine.length} rows`);
      continue;
    }
    const row = mine[0];
    if (row.candidate_id !== f.candidate_id || !want.has(row.status as Status)) wrongStatus.push(`${f.client_ref}: ${JSON.stringify(row.status)} (TalentLoop: ${[...want].join(" or ")})`);
    const landed = notesOf(notes, f);
    if (want.has("delivered")) {
      if (landed.length !== 1 || row.note_id !== landed[0].id) wrongIds.push(`${f.client_ref}: note_id ${JSON.stringify(row.note_id)}, TalentLoop has ${fewIds(landed.map((n) => n.id)) || "none"}`);
    } else if (row.note_id !== null || typeof row.detail !== "string") wrongIds.push(`${f.client_ref}: an undelivered follow-up needs note_id null and a detail`);
  }
  const extra = got.filter((r) => !FOLLOW_UPS.some((f) => f.client_ref === r.client_ref)).length;
  const sorted = got.every((r, i) => i === 0 || String(got[i - 1].client_ref) < String(r.client_ref));
  const statusOk = !wrongStatus.length && !extra && sorted;
  c.check(`${prefix}statuses_true`, statusOk, {
    basis: {
      ticket:
        "`status` is `delivered` (the note is on the candidate, and `note_id` is TalentLoop's id of it), `candidate_deleted` (TalentLoop had the candidate and deleted it), `candidate_missing` (TalentLoop never had a candidate with that id) or `rejected` (TalentLoop refused the note itself; Nudge's author fixes it and queues it again).",
    },
    pass: opts.pass,
    mandatory: opts.mandatory,
    detail: statusOk
      ? `${FOLLOW_UPS.length} follow-ups reported as TalentLoop holds them`
      : [wrongStatus.length && fewIds(wrongStatus), extra && `${extra} rows for no follow-up`, !sorted && "not sorted by client_ref"].filter(Boolean).join("; "),
  });
  c.check(`${prefix}note_ids_true`, !wrongIds.length, {
    basis: { ticket: "For anything but `delivered`, `note_id` is `null` and `detail` is a sentence for the recruiter." },
    detail: wrongIds.length ? fewIds(wrongIds) : "every delivered follow-up names its note, the others none",
  });
}

/** Each follow-up TalentLoop can take is one note on its candidate, with its author; the others none. */
function notedOnce(c: CheckRecorder, name: string, allowed: Map<string, Set<Status>>, notes: SnapshotRecord[]): void {
  const wrong: string[] = [];
  for (const f of FOLLOW_UPS) {
    const mine = notes.filter((n) => String(n.record.body ?? "").includes(`[Nudge ${f.client_ref}]`));
    const want = allowed.get(f.client_ref)!.has("delivered") ? 1 : 0;
    if (mine.length !== want) wrong.push(`${f.client_ref}: ${mine.length} notes`);
    else if (want && (notesOf(mine, f).length !== 1 || mine[0].record.author !== f.author)) wrong.push(`${f.client_ref}: not the ticket's note`);
  }
  const stray = notes.filter((n) => !FOLLOW_UPS.some((f) => String(n.record.body ?? "").includes(`[Nudge ${f.client_ref}]`))).length;
  c.check(name, !wrong.length && !stray, {
    basis: { ticket: "One follow-up is one note, never two, whatever happens on the way and however often `push` runs." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail:
      wrong.length || stray
        ? [wrong.length && fewIds(wrong), stray && `${stray} notes that are no follow-up's`].filter(Boolean).join("; ")
        : `${notes.length} notes, one per follow-up TalentLoop can take`,
  });
}

export default defineTask({
  id: "task-0017",
  title: "Harden the TalentLoop hub: a listener, a poll and a note writeback through one bad day; lost deletes found through the 410",
  kind: "harden",
  roles: { [ROLE]: { vendor: "talentloop", checkpoint: 0 } },
  seed: 17,
  // Stale docs: deleted records are said to stay in lists with `deleted: true` (tl-delete-flag),
  // while they drop out of lists and read 410 Gone; server errors are said to be safe to retry,
  // while createNote takes no idempotency key. The faults are in no docs.
  docsProfile: "stale",
  surfaces: ["webhooks", "polling", "writeback"],
  primaryMechanic: "dropped_delete_reconcile",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill", "serve", "poll", "push"] },
  outputs: {
    ...mirrorOutputs(HUB),
    [RESULT]: jsonRows(
      z.looseObject({
        client_ref: z.string(),
        candidate_id: z.string(),
        status: z.enum(["delivered", "candidate_deleted", "candidate_missing", "rejected"]),
        note_id: z.string().nullable(),
        detail: z.string().nullable(),
      }),
    ),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // The listener was down for two days: no event reaches the hub, and the poll alone has to
      // bring it level, every delete included, through its own 500 and a revoked token.
      name: "catch_up_after_outage",
      judge: (e, c, ctx) => {
        const cp1 = e.snapshots.cp1[ROLE];
        const cp3 = e.snapshots.cp3[ROLE];
        const backfill = byLabel(e, "backfill");
        if (plumbing(c, "outage_backfill_exit_ok", backfill, HUB, { ticket: "Every command exits 0 through a day like last Tuesday." }))
          hubMatches(c, "outage_backfill_matches", backfill, cp1, heldAt(cp1), { pass: 1, level: "l1", basis: { ticket: "Reads every candidate and application and writes the hub from scratch." } });
        const poll = byLabel(e, "poll");
        if (!plumbing(c, "outage_poll_exit_ok", poll, HUB, { ticket: "Every command exits 0 through a day like last Tuesday." })) return;
        hubMatches(c, "outage_poll_matches", poll, cp3, heldAt(cp1), { pass: 2, level: "l3", basis: { ticket: "When it ends, the hub must match TalentLoop exactly, deletes included." } });
        removalsConfirmed(c, "outage_removals_confirmed_gone", e, ctx, backfill, poll);
      },
    },
    {
      // One bad day, as the incident report tells it: the listener takes a storm of events with
      // two deletes missing, the push runs into a lost answer and a candidate the hub still
      // thinks live, the poll runs into a 500 and a revoked token, and the push runs again.
      name: "incident_day",
      judge: (e, c, ctx) => {
        const cp0 = e.snapshots.cp0[ROLE];
        const cp1 = e.snapshots.cp1[ROLE];
        const held = heldAt(cp0);
        const backfill = byLabel(e, "backfill");
        if (plumbing(c, "incident_backfill_exit_ok", backfill, HUB, { ticket: "Every command exits 0 through a day like last Tuesday." }))
          hubMatches(c, "incident_backfill_matches", backfill, cp0, held, { pass: 1, level: "l1", basis: { ticket: "Reads every candidate and application and writes the hub from scratch." } });
        deliveryChecks(c, deliveries(e, ROLE), ctx.vendors[ROLE]?.webhooks?.maxSkewS ?? 300, {
          acknowledged: { ticket: "acknowledge what you have taken in with a 2xx so TalentLoop does not resend it" },
          refused: { ticket: "Refuse anything else with a 4xx" },
        });

        // The listener: every change of the day, except deletes whose events never came.
        const listener = byLabel(e, "serve");
        if (plumbing(c, "listener_exit_ok", listener, HUB, { ticket: "Every command exits 0 through a day like last Tuesday." })) {
          const problems: string[] = [];
          for (const { entity, file } of ENTITIES) {
            const actual = rows(listener, file);
            const byId = new Map(actual.map((r) => [String(r.source_id), r]));
            // Held before the day or created during it: a record whose delete event was dropped stays live.
            const live = [...deletedIds(cp1, entity)].filter((id) => byId.get(id)?.is_deleted === false);
            const tolerated = live.length <= droppedDeletes(ctx.vendors[ROLE], INCIDENT_FAULTS, entity) ? new Set(live) : new Set<string>();
            const cmp = compareHub(actual, cp1, entity, held[entity], tolerated);
            if (!cmp.ok) problems.push(`${file}: ${cmp.detail}`);
          }
          c.check("listener_hub_sound", problems.length === 0, {
            basis: { ticket: "After the listener has run, the hub holds every change TalentLoop delivered, once and in order." },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: problems.length ? problems.join("; ") : "the hub took every delivered change, once, in order, and no removed record came back",
          });
        }

        // The push: every follow-up settled as TalentLoop holds it, each note written once.
        const allowed = allowedStatuses(ctx, cp1);
        const push = byLabel(e, "push");
        const pushedNotes = newNotes(cp1, e.snapshots.pushed[ROLE]);
        if (plumbing(c, "push_exit_ok", push, [RESULT, ...HUB], { ticket: "Every command exits 0 through a day like last Tuesday." })) {
          resultChecks(c, "writeback_", push, allowed, pushedNotes, { mandatory: true, pass: 2 });
          notedOnce(c, "follow_ups_noted_once", allowed, pushedNotes);
          const hub = new Map(rows(push, "candidates.json").map((r) => [String(r.source_id), r]));
          const gone = deletedIds(cp1, "candidate");
          const targets = [...new Set(FOLLOW_UPS.map((f) => f.candidate_id).filter((id) => gone.has(id) && held.candidate.has(id)))];
          const unmarked = targets.filter((id) => hub.get(id)?.is_deleted !== true);
          c.check("push_marks_deleted_targets", unmarked.length === 0, {
            basis: {
              ticket: "When TalentLoop turns out to have deleted a candidate the hub still held, the hub must show the delete by the time `push` ends: Nudge stops that candidate's sequence from it.",
            },
            level: "l3",
            detail: unmarked.length
              ? `${fewIds(unmarked)} deleted in TalentLoop but still live in the hub after the push`
              : `${targets.length} deleted follow-up targets removed from the hub by the push`,
          });
        }

        // The poll: the hub level with TalentLoop, the deletes no event told included.
        const poll = byLabel(e, "poll");
        if (plumbing(c, "poll_exit_ok", poll, HUB, { ticket: "Every command exits 0 through a day like last Tuesday." })) {
          hubMatches(c, "poll_hub_matches", poll, cp1, held, { pass: 2, level: "l1", basis: { ticket: "When it ends, the hub must match TalentLoop exactly, deletes included." } });
          const missed: string[] = [];
          let deleted = 0;
          for (const { entity, file } of ENTITIES) {
            const after = new Map(rows(poll, file).map((r) => [String(r.source_id), r]));
            for (const id of deletedBetween(cp0, cp1, entity)) {
              deleted += 1;
              if (after.get(id)?.is_deleted !== true) missed.push(id);
            }
          }
          c.check("missed_deletes_found_by_poll", deleted > 0 && missed.length === 0, {
            basis: { ticket: "After `poll`, the hub matches TalentLoop, including the deletes no event told it about." },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: missed.length
              ? `${missed.length} of ${deleted} records deleted that day still live after the poll (${fewIds(missed)})`
              : `${deleted} records deleted that day removed after the poll`,
          });
          removalsConfirmed(c, "incident_removals_confirmed_gone", e, ctx, listener, poll, true);
        }

        // Writes: only the follow-ups' notes, and a note TalentLoop refused is not sent again.
        const writes = (e.requests[ROLE] ?? []).filter((r) => r.method !== "GET" && !(ctx.vendors[ROLE]?.auth.mints ?? []).some((m) => m.path === r.path));
        if (writes.length) {
          const other = writes.filter((r) => !(r.method === "POST" && NOTES_PATH.test(r.path)));
          c.check("writes_only_follow_up_notes", other.length === 0, {
            basis: { ticket: "Write nothing to TalentLoop but the follow-ups' notes." },
            level: "l2",
            detail: other.length
              ? `${other.length} writes that are no follow-up's note (first #${other[0].seq} ${other[0].method} ${other[0].path})`
              : `${writes.length} writes, each a follow-up's note`,
          });
          const refused = new Map<string, number>();
          for (const r of writes.filter((w) => w.status === 422)) refused.set(`${r.path} ${JSON.stringify(r.body)}`, (refused.get(`${r.path} ${JSON.stringify(r.body)}`) ?? 0) + 1);
          const again = [...refused.values()].filter((n) => n > 1).length;
          // Recorded on every seed: whether TalentLoop refuses a queued note depends on the world's data (none on some seeds).
          c.check("refused_notes_not_resent", again === 0, {
            basis: { ticket: "TalentLoop refused the note itself; Nudge's author fixes it and queues it again" },
            level: "l2",
            detail: again ? `${again} notes TalentLoop refused were sent again` : refused.size ? `${refused.size} refused notes, none sent again` : "TalentLoop refused no note",
          });
        }

        // The rerun: nothing written again, the same report.
        const rerun = byLabel(e, "push_rerun");
        if (plumbing(c, "push_rerun_exit_ok", rerun, [RESULT], { ticket: "Every command exits 0 through a day like last Tuesday." })) {
          const before = new Set(pushedNotes.map((n) => n.id));
          const after = newNotes(cp1, e.snapshots.rerun[ROLE]);
          const added = after.filter((n) => !before.has(n.id)).map((n) => n.id);
          c.check("rerun_writes_nothing", added.length === 0 && after.length === before.size, {
            basis: { ticket: "After `push`, every follow-up is on its candidate exactly once or reported with the reason it is not, and a rerun changes nothing." },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: added.length ? `the rerun wrote ${added.length} more notes (${fewIds(added)})` : `the rerun left TalentLoop's ${after.length} new notes as they were`,
          });
          resultChecks(c, "rerun_", rerun, allowed, after, { mandatory: false, pass: 1 });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials belong in headers",
    no_secrets_echoed_to_vendor: "credentials belong in headers",
    webhook_bad_signature_rejected: "nothing reaches the hub unless it provably comes from TalentLoop, now",
    webhook_stale_timestamp_rejected: "nothing reaches the hub unless it provably comes from TalentLoop, now",
    token_reused_not_reminted: "reuse access tokens while they are valid",
    retry_after_honored: "follow the documented rate limits",
    no_hot_loop_on_error: "do not hammer a failing endpoint",
    resume_not_restart_after_5xx: "A run that meets trouble TalentLoop recovers from within seconds finishes its work.",
  },
});
