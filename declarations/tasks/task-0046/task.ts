import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, Snapshot } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { authentic, deliveries, deliveryChecks } from "../shared/deliveries.ts";
import { committedWrites } from "../shared/committed-writes.ts";
import { localToUnixS } from "../shared/local-time.ts";

const ROLE = "interviewly";
const RESULTS = "reschedule_results.json";

/**
 * The lines of `repo/input/reschedules.csv`: ids as the desk typed them, starts in the interview's
 * zone. `local` is the start the line means; the export writes RS-2205's as `2025-11-04 8:30`
 * (the spreadsheet drops the hour's leading zero), a move Interviewly can make all the same.
 */
const SHEET = [
  { ref: "RS-2201", typed: "ivw_000021", local: "2025-11-03 09:00" },
  { ref: "RS-2202", typed: "ivw_000034", local: "2025-10-31 15:30" },
  { ref: "RS-2203", typed: "ivw_000012", local: "2025-10-27 10:00" },
  { ref: "RS-2204", typed: "ivw_000022", local: "2025-10-28 11:00" },
  { ref: "RS-2205", typed: "ivw_000023", local: "2025-11-04 08:30" },
  { ref: "RS-2206", typed: "IVW_000001", local: "2025-10-29 16:00" },
  { ref: "RS-2207", typed: "ivw_000101", local: "2025-10-30 14:00" },
  { ref: "RS-2208", typed: "ivw_000036", local: "2025-11-05 13:00" },
];

/** The third reschedule call commits, then answers 502. */
export const LOST_ANSWER = "iv-reschedule-502-after-commit";
/** Interviewly accepts RS-2204's move (ivw_000022) with a 202, then turns it down as it comes to make it: `interview.reschedule_failed`. */
export const TURNED_DOWN = "iv-reschedule-calendar-conflict";
/** An edge proxy breaks off the answer to the call after the first one on ivw_000023 (RS-2205): for a connector that reads before it moves, the move's 202. */
export const ANSWER_BROKEN = "iv-reschedule-answer-reset";
/** And the answer to the call after the second one on ivw_000036 (RS-2208): for gold, a read while the moves wait for their confirmations. */
export const READ_BROKEN = "iv-waiting-read-reset";
/** Besides: every third event delivered twice, and two forged deliveries after the second event. */
export const FAULTS = [LOST_ANSWER, TURNED_DOWN, ANSWER_BROKEN, READ_BROKEN, "iv-replay-some", "iv-forged-delivery"];
/** Interviewly replays a stored Idempotency-Key for an hour. */
const KEY_WINDOW_S = 3600;

const ResultRowSchema = z.looseObject({
  ref: z.string(),
  interview_id: z.string(),
  status: z.enum(["committed", "pending", "rejected"]),
  starts_at: z.number().nullable(),
  request_id: z.string().nullable(),
  confirmation_event_id: z.string().nullable(),
  error: z.string().nullable(),
});
type ResultRow = z.infer<typeof ResultRowSchema>;

const TRUTHFUL = { ticket: "A move is reported committed only once Interviewly has confirmed it; never on Interviewly's word that it accepted the call." };
const SETTLED = { ticket: "After the second run every move Interviewly could make is committed, every move it refused is reported rejected in its words" };
const ZONE = { ticket: "each interview it moved starts at the time the sheet asked for in its own time zone" };
const LEFT_ALONE = {
  ticket: "A move Interviewly refused goes back to the desk, who will sort it out with the panel by hand: report it rejected in Interviewly's words and never send it to Interviewly again.",
};
const ONCE = { ticket: "Each move is made once: no interview is moved twice for one line of the sheet, however many times `push` runs or whatever answer a call gets." };

/** What each line of the sheet should come to, from Interviewly's state before the first run. */
interface Expected {
  ref: string;
  id: string;
  /** Unix seconds the interview must start at; null when the move must be rejected. */
  startsAt: number | null;
  /** Interviewly's words when it accepts the move and then turns it down (the row must end rejected in them), else null. */
  turnedDown: string | null;
}

/** The armed refusal of accepted reschedules: the interviews it names and Interviewly's message. */
interface Refusal {
  recordIds: string[];
  message: string;
}

function expectations(start: Snapshot, refusal: Refusal | null): Expected[] {
  const byId = new Map((start.entities.interview ?? []).map((r) => [r.id, r]));
  return SHEET.map(({ ref, typed, local }) => {
    const id = typed.trim().toLowerCase();
    const r = byId.get(id);
    const startsAt = r && !r.deleted ? localToUnixS(local, String(r.record.time_zone)) : null;
    const turnedDown = startsAt !== null && refusal?.recordIds.includes(id) ? refusal.message : null;
    return { ref, id, startsAt, turnedDown };
  });
}

const startsAtIn = (s: Snapshot | undefined, id: string): unknown => s?.entities.interview?.find((r) => r.id === id)?.record.starts_at;
const results = (run: ConnectorRun | undefined): ResultRow[] => objects(outputRows<ResultRow>(run, RESULTS));

/** The vendor's id for the one accepted reschedule of an interview (`ivreq_` and the call's number), or null. */
function acceptedRequest(writes: Map<string, RequestLogEntry[]>, id: string): string | null {
  const mine = writes.get(id) ?? [];
  return mine.length === 1 ? `ivreq_${String(mine[0].seq).padStart(6, "0")}` : null;
}

/**
 * What is wrong with one run's report: a line missing, a rejection that was
 * not one, a move called committed that Interviewly had not made or whose ids
 * are not Interviewly's, and (when `settled`) a move still not committed.
 */
function reportProblems(run: ConnectorRun | undefined, want: Expected[], truth: Snapshot | undefined, writes: Map<string, RequestLogEntry[]>, events: Set<string>, settled: boolean): string[] {
  const got = results(run);
  const problems: string[] = [];
  const sorted = got.every((r, i) => i === 0 || String(got[i - 1].ref) < String(r.ref));
  if (!sorted) problems.push("rows not sorted by ref");
  if (got.length !== want.length) problems.push(`${got.length} rows for ${want.length} lines`);
  const confirmations = new Map<string, string>();
  for (const w of want) {
    const row = got.find((r) => r.ref === w.ref);
    if (!row) {
      problems.push(`${w.ref}: no row`);
      continue;
    }
    if (w.startsAt === null) {
      if (row.status !== "rejected") problems.push(`${w.ref}: ${row.status}, but ${w.id} is no live interview`);
      continue;
    }
    if (row.interview_id !== w.id) problems.push(`${w.ref}: interview_id ${JSON.stringify(row.interview_id)} (Interviewly: ${w.id})`);
    if (w.turnedDown !== null) {
      // Accepted, then turned down by Interviewly: never committed; after the second run rejected in Interviewly's words.
      if (row.status === "committed") problems.push(`${w.ref}: committed, but Interviewly turned the move down (${w.id} still starts at ${startsAtIn(truth, w.id)})`);
      else if (settled && row.status === "pending") problems.push(`${w.ref}: still pending after the second run, though Interviewly turned the move down`);
      else if (settled && !(typeof row.error === "string" && row.error.includes(w.turnedDown)))
        problems.push(`${w.ref}: rejected with error ${JSON.stringify(row.error)}, not in Interviewly's words (${JSON.stringify(w.turnedDown)})`);
      continue;
    }
    if (row.status === "rejected") {
      problems.push(`${w.ref}: rejected (${row.error}), but Interviewly could make the move`);
      continue;
    }
    if (row.status === "pending") {
      if (settled) problems.push(`${w.ref}: still pending after the second run`);
      continue;
    }
    const at = startsAtIn(truth, w.id);
    if (at !== w.startsAt) problems.push(`${w.ref}: committed, but ${w.id} starts at ${at} in Interviewly, not ${w.startsAt}`);
    const request = acceptedRequest(writes, w.id);
    if (row.request_id !== request) problems.push(`${w.ref}: request_id ${JSON.stringify(row.request_id)}, Interviewly accepted the move as ${request}`);
    const event = row.confirmation_event_id;
    if (typeof event !== "string" || !events.has(event)) problems.push(`${w.ref}: confirmation_event_id ${JSON.stringify(event)} is no event Interviewly delivered`);
    else if (confirmations.has(event)) problems.push(`${w.ref}: confirmed by ${event}, which already confirmed ${confirmations.get(event)}`);
    else confirmations.set(event, w.ref);
    if (row.starts_at !== w.startsAt) problems.push(`${w.ref}: starts_at ${row.starts_at}, the move is to ${w.startsAt}`);
  }
  return problems;
}

export default defineTask({
  id: "task-0046",
  title:
    "Interviewly reschedule sheet: 202-accepted moves committed only on their confirming event, a move turned down after its 202 reported rejected and left alone, a lost or broken-off answer retried under the same key, local starts through each interview's own time zone",
  kind: "build",
  roles: { [ROLE]: { vendor: "interviewly", checkpoint: 1 } },
  seed: 46,
  docsProfile: "true",
  surfaces: ["webhooks", "writeback"],
  primaryMechanic: "commit_on_event_not_202",
  entry: { command: ["node", "src/main.ts"], subcommands: ["push", "serve"] },
  outputs: { [RESULTS]: jsonRows(ResultRowSchema) },
  timeLimitS: 90,
  scenarios: [
    {
      // The listener up; the sheet pushed (the third move's answer lost after it was accepted, RS-2204's accepted and then turned down,
      // two answers broken off mid-body by an edge proxy: RS-2205's accepted move and a read while the moves wait), then pushed again.
      name: "desk_moves",
      judge: (e, c, ctx) => {
        const vendor = ctx.vendors[ROLE];
        const maxSkewS = vendor.webhooks?.maxSkewS ?? 60;
        const [start, afterPush, afterRerun] = ["start", "after_push", "after_rerun"].map((l) => e.snapshots[l]?.[ROLE]);
        const push = byLabel(e, "push");
        if (!plumbing(c, "push_ran_ok", push, [RESULTS], { ticket: "Both commands exit 0." }) || !start) return;
        const armed = vendor.faults.find((f) => f.id === TURNED_DOWN);
        const want = expectations(start, armed?.kind === "accepted-write-refused" ? { recordIds: armed.recordIds, message: armed.message } : null);
        const requests = e.requests[ROLE] ?? [];
        const writes = new Map(
          want.map((w) => [w.id, committedWrites(requests, { isCall: (r) => r.method === "PATCH" && r.path === `/v1/interviews/${w.id}`, windowS: KEY_WINDOW_S, afterCommitFaults: [LOST_ANSWER] })]),
        );
        const events = new Set(
          deliveries(e, ROLE)
            .filter((d) => authentic(d, maxSkewS))
            .map((d) => d.eventId),
        );

        const first = reportProblems(push, want, afterPush, writes, events, false);
        c.check("first_report_truthful", first.length === 0, {
          basis: TRUTHFUL,
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: first.length ? first.slice(0, 4).join("; ") : `${want.length} lines reported as Interviewly held them after the first run`,
        });

        const rerun = byLabel(e, "rerun");
        if (!plumbing(c, "rerun_ran_ok", rerun, [RESULTS], { ticket: "Both commands exit 0." })) return;
        const second = reportProblems(rerun, want, afterRerun, writes, events, true);
        c.check("second_report_settled", second.length === 0, {
          basis: SETTLED,
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: second.length
            ? second.slice(0, 4).join("; ")
            : `${want.filter((w) => w.startsAt !== null && w.turnedDown === null).length} moves committed, each with its confirming event; ${want.filter((w) => w.turnedDown !== null).length} turned down and reported so`,
        });

        const misplaced = want
          .filter((w) => w.startsAt !== null && w.turnedDown === null && startsAtIn(afterRerun, w.id) !== w.startsAt)
          .map((w) => `${w.id} at ${startsAtIn(afterRerun, w.id)} (sheet: ${w.startsAt})`);
        c.check("interviews_at_requested_local_time", misplaced.length === 0, {
          basis: ZONE,
          pass: 2,
          mandatory: true,
          detail: misplaced.length
            ? `${misplaced.length} interviews not at the sheet's time in their own zone: ${misplaced.slice(0, 3).join("; ")}`
            : "every movable interview starts where the sheet asked",
        });

        const twice = want.filter((w) => (writes.get(w.id) ?? []).length > 1).map((w) => `${w.id} (${writes.get(w.id)!.length} accepted moves)`);
        const stray = want.filter((w) => w.startsAt === null && (writes.get(w.id) ?? []).length > 0).map((w) => w.id);
        c.check("each_move_made_once", twice.length + stray.length === 0, {
          basis: ONCE,
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: twice.length + stray.length ? [...twice, ...stray.map((id) => `${id} moved though it is no live interview`)].join("; ") : "each movable interview moved once over both runs",
        });

        const refusedMoves = want.filter((w) => w.turnedDown !== null);
        if (refusedMoves.length) {
          const resent = refusedMoves.filter((w) => (writes.get(w.id) ?? []).length > 1).map((w) => `${w.ref} (${w.id}): ${(writes.get(w.id) ?? []).length} accepted moves`);
          c.check("refused_move_not_resent", resent.length === 0, {
            basis: LEFT_ALONE,
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: resent.length
              ? `a move Interviewly turned down was sent to it again: ${resent.join("; ")}`
              : `${refusedMoves.map((w) => w.ref).join(", ")}: not sent again after Interviewly turned it down`,
          });
        }

        const patches = requests.filter((r) => r.method === "PATCH" && r.path.startsWith("/v1/interviews/"));
        const unkeyed = patches.filter((r) => !r.idempotencyKey);
        if (patches.length) {
          c.check("moves_carry_idempotency_keys", unkeyed.length === 0, {
            basis: ONCE,
            level: "l2",
            detail: unkeyed.length
              ? `${unkeyed.length} of ${patches.length} reschedule calls without an Idempotency-Key (first #${unkeyed[0].seq})`
              : `${patches.length} reschedule calls, each with an Idempotency-Key`,
          });
        }

        const listener = byLabel(e, "serve");
        c.check("listener_ran_ok", listener?.exitCode === 0 && !listener.timedOut, {
          basis: { ticket: "Both commands exit 0." },
          pass: 0,
          fail: -1,
          detail: !listener ? "the listener did not run" : listener.timedOut ? "the listener timed out" : `the listener exited ${listener.exitCode}`,
        });

        deliveryChecks(c, deliveries(e, ROLE), maxSkewS, {
          acknowledged: { ticket: "acknowledge each delivery the way Interviewly counts an acknowledgement" },
          refused: { ticket: "refuse anything else with a 4xx" },
        });
        const genuine = deliveries(e, ROLE).filter((d) => authentic(d, maxSkewS));
        if (genuine.length) {
          const unacked = [...events].filter((id) => !genuine.some((d) => d.eventId === id && d.acked === true));
          c.check("every_event_acknowledged", unacked.length === 0, {
            basis: { ticket: "acknowledge each delivery the way Interviewly counts an acknowledgement" },
            level: "l2",
            detail: unacked.length ? `${unacked.length} of ${events.size} events never acknowledged the way Interviewly counts it (${fewIds(unacked)})` : `${events.size} events, each acknowledged`,
          });
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials belong in headers",
    no_secrets_echoed_to_vendor: "credentials belong in headers",
    webhook_bad_signature_rejected: "Nothing the listener takes in counts unless it provably comes from Interviewly, now",
    webhook_stale_timestamp_rejected: "Nothing the listener takes in counts unless it provably comes from Interviewly, now",
    token_reused_not_reminted: "access tokens are reused",
  },
});
