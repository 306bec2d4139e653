import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { csvRows } from "../../schema/output-contract.ts";
import { defineTask } from "../../schema/task.ts";
import { committedWrites } from "../shared/committed-writes.ts";
import { deliveries, deliveryChecks } from "../shared/deliveries.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";

const ROLE = "book";
const BOARD = "board.csv";
const COLUMNS = ["placement_id", "contractor_id", "client_id", "status", "currency", "hourly_bill_rate", "hours_per_week", "agency_fee_bps", "cost_center", "updated_at"] as const;
const AUTHOR = "Delivery desk";
const VISIBILITY = "agency";
export const closeBody = (id: string, endedAt: string) => `Closed out by the delivery desk: ${id} has ended (${endedAt}).`;

/**
 * Faults of the back-fill: a revoked token, a short quota window, a failing page, the placement list
 * drifting under a crawl, and the first export file PlaceMint serves cut off part-way (the docs: a
 * connection can drop part-way through an answer, on any endpoint).
 */
export const BACKFILL_FAULTS = ["pm-tokens-revoked", "pm-burst-429-short", "pm-placements-502-page-3", "pm-placements-drift-early", "pm-export-file-reset"];
/** Faults of the listening stretch and the catch-up: deliveries twice, a forgery, a stale replay, a placement change and a deletion never sent, an older version of a placement delivered after its newer one, the list drifting (and, once the catch-up reads it, drifting again every few pages: a crawl of it never holds still), the fee statements file not there yet when its job already says ready, a note answered 500 after it committed, and the token again. */
export const MONDAY_FAULTS = [
  "pm-webhook-redelivery",
  "pm-webhook-forged",
  "pm-webhook-replayed",
  "pm-webhook-drop-placement",
  "pm-webhook-drop-placement-delete",
  "pm-webhook-late-version",
  "pm-placements-drift",
  "pm-placements-busy-1",
  "pm-placements-busy-2",
  "pm-placements-busy-3",
  "pm-placements-busy-4",
  "pm-placements-busy-5",
  "pm-placements-busy-6",
  "pm-placements-busy-7",
  "pm-placements-busy-8",
  "pm-placements-busy-9",
  "pm-placements-busy-10",
  "pm-fee-statements-file-late",
  "pm-note-500-after-commit",
  "pm-tokens-revoked",
];
/** Faults of the week after: the token again, a short quota window, and the fee statements file late. */
export const EXTENSION_FAULTS = ["pm-tokens-revoked", "pm-burst-429-short", "pm-fee-statements-file-late"];
/**
 * Faults of the day the extensions end, the listener running: deliveries twice, the version before
 * an end delivered after it, the first close-out answered 500 after it committed, the token again,
 * and the export file late, the first two answers to its download (a refusal among them) cut off part-way.
 */
export const EXTENSION_END_FAULTS = ["pm-webhook-redelivery", "pm-webhook-late-version", "pm-note-500-after-commit", "pm-tokens-revoked", "pm-fee-statements-file-late", "pm-export-file-reset-twice"];
const AFTER_COMMIT = ["pm-note-500-after-commit"];

const BoardRow = z.looseObject(Object.fromEntries(COLUMNS.map((h) => [h, z.string()])));
type BoardRow = Record<string, string>;

const MATCHES = { ticket: "After a `sync`, the board matches PlaceMint: every placement, every value." };
const LIVE = { ticket: "Between syncs the listener keeps the board current: a change PlaceMint pushes is on the board when the listener is stopped." };
const SYNC_EXIT = { ticket: "`sync` exits 0 when the board is written and every close-out is on PlaceMint" };
const ONCE = { ticket: "By the time that `sync` exits, every such ending carries exactly one close-out note" };
const AGAIN = { ticket: "When an extended placement ends again, that is a new ending and the desk closes it out again, with a close-out note of its own" };

const rowsOf = (run: ConnectorRun | undefined): BoardRow[] =>
  (outputRows<unknown>(run, BOARD) ?? []).flatMap((r) => {
    const row = BoardRow.safeParse(r).data as BoardRow | undefined;
    return row ? [row] : [];
  });

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** The board the ticket asks for at `s`: every live placement, by id. */
function truth(s: Snapshot): Map<string, BoardRow> {
  const out = new Map<string, BoardRow>();
  for (const p of s.entities.placement ?? []) {
    if (p.deleted) continue;
    out.set(p.id, Object.fromEntries(COLUMNS.map((c) => [c, text(c === "placement_id" ? p.id : p.record[c])])));
  }
  return out;
}

const same = (a: BoardRow, b: BoardRow) => COLUMNS.every((c) => (a[c] ?? "").trim() === b[c]);

/**
 * A board against the truth: rows missing, unexpected, repeated or wrong, and the order. A row
 * at its `older` version counts apart (a change PlaceMint never pushed, or a newer version undone by
 * an older one delivered late); `allowedOld` of them (the changes never pushed) are tolerated.
 */
function compareBoard(rows: BoardRow[], want: Map<string, BoardRow>, older?: Map<string, BoardRow>, allowedOld = 0): { ok: boolean; detail: string } {
  const got = new Map<string, BoardRow>();
  const repeated: string[] = [];
  for (const r of rows) {
    const id = (r.placement_id ?? "").trim();
    if (got.has(id)) repeated.push(id);
    got.set(id, r);
  }
  const missing = [...want.keys()].filter((id) => !got.has(id));
  const old: string[] = [];
  // A row PlaceMint deleted since, still as it was: a deletion never pushed.
  const extra = [...got.keys()].filter((id) => {
    if (want.has(id)) return false;
    const o = older?.get(id);
    const have = got.get(id);
    if (o && have && same(have, o)) {
      old.push(id);
      return false;
    }
    return true;
  });
  const wrong: string[] = [];
  for (const [id, w] of want) {
    const have = got.get(id);
    if (!have || same(have, w)) continue;
    const o = older?.get(id);
    if (o && same(have, o)) old.push(id);
    else {
      const cols = COLUMNS.filter((c) => (have[c] ?? "").trim() !== w[c]);
      wrong.push(`${id} (${cols.map((c) => `${c} ${JSON.stringify(have[c])}, want ${JSON.stringify(w[c])}`).join(", ")})`);
    }
  }
  const sorted = rows.every((r, i) => i === 0 || (rows[i - 1].placement_id ?? "").trim() < (r.placement_id ?? "").trim());
  const ok = !missing.length && !extra.length && !repeated.length && !wrong.length && old.length <= allowedOld && sorted;
  const detail = [
    missing.length && `${missing.length} placements missing (${fewIds(missing)})`,
    extra.length && `${extra.length} rows PlaceMint does not hold (${fewIds(extra)})`,
    repeated.length && `${repeated.length} placements twice (${fewIds(repeated)})`,
    wrong.length && `${wrong.length} rows wrong: ${wrong.slice(0, 2).join("; ")}`,
    old.length > allowedOld &&
      `${old.length} rows as they were at the last sync, ${allowedOld} changes never pushed at most (a change missed, or an older version delivered late applied over the newer one: ${fewIds(old)})`,
    !sorted && "not sorted by placement_id",
  ]
    .filter(Boolean)
    .join("; ");
  return { ok, detail: ok ? `${want.size} placements match${old.length ? ` (${old.length} changes never pushed, not yet on it)` : ""}` : detail };
}

const isNote = (r: RequestLogEntry) => r.method === "POST" && r.path === "/v2/notes";
const isWrite = (r: RequestLogEntry) => r.method !== "GET" && r.path.startsWith("/v2/") && !r.path.startsWith("/v2/exports");
const bodyOf = (r: RequestLogEntry) => (r.body && typeof r.body === "object" ? (r.body as Record<string, unknown>) : {});

/**
 * The close-outs of one stretch between two syncs: the placements the board held as not ended at
 * `from` that PlaceMint has as ended at `to`, against the notes PlaceMint applied in that stretch.
 */
function closeOuts(from: Snapshot, to: Snapshot, applied: RequestLogEntry[]): { ended: string[]; stray: string[]; problems: string[] } {
  const before = new Map((from.entities.placement ?? []).filter((p) => !p.deleted).map((p) => [p.id, String(p.record.status)]));
  const endings = (to.entities.placement ?? []).filter((p) => !p.deleted && p.record.status === "ended" && before.has(p.id) && before.get(p.id) !== "ended");
  const ended = endings.map((p) => p.id);
  const endedAt = new Map(endings.map((p) => [p.id, text(p.record.updated_at)]));
  const byPlacement = new Map<string, RequestLogEntry[]>();
  for (const r of applied) {
    const pid = text(bodyOf(r).placement_id);
    byPlacement.set(pid, [...(byPlacement.get(pid) ?? []), r]);
  }
  const unnoted = ended.filter((id) => !byPlacement.has(id));
  const twice = ended.filter((id) => (byPlacement.get(id)?.length ?? 0) > 1).map((id) => `${id} x${byPlacement.get(id)?.length}`);
  const wrongNote = ended.filter((id) => {
    const b = bodyOf(byPlacement.get(id)?.[0] ?? ({} as RequestLogEntry));
    return byPlacement.has(id) && (b.body !== closeBody(id, endedAt.get(id) ?? "") || b.author !== AUTHOR || b.visibility !== VISIBILITY);
  });
  const problems = [
    unnoted.length && `${unnoted.length} of ${ended.length} ended placements without their close-out (${fewIds(unnoted)})`,
    twice.length && `${twice.length} closed out more than once (${fewIds(twice)})`,
    wrongNote.length && `${wrongNote.length} close-outs with the wrong body, author or visibility (${fewIds(wrongNote)})`,
  ].filter((x): x is string => !!x);
  return { ended, stray: [...byPlacement.keys()].filter((id) => !ended.includes(id)), problems };
}

function judgeMonday(e: ScenarioEvidence, c: CheckRecorder, maxSkewS: number): void {
  const first = byLabel(e, "sync");
  if (!plumbing(c, "sync_exit_ok", first, [BOARD], SYNC_EXIT)) return;
  const synced = e.snapshots.synced[ROLE];
  const listened = e.snapshots.listened[ROLE];
  const end = e.snapshots.end[ROLE];
  const atSync = truth(synced);
  const built = compareBoard(rowsOf(first), atSync);
  c.check("board_after_first_sync", built.ok, { basis: MATCHES, pass: 2, mandatory: true, level: "l3", detail: built.detail });

  // The drive's recreates, in order: the first sync, Monday (listener, catch-up), the extensions (a sync), their ends (listener, sync).
  const epochs = [...(e.epochs[ROLE] ?? [])].sort((a, b) => a - b).slice(-4);
  // Each sync's own notes are pushed too, after the listener stopped (and no listener runs for the
  // extensions): only the listening stretches' deliveries up to their last answer count.
  const log = deliveries(e, ROLE);
  const heard = [epochs[1], epochs[3]].flatMap((epoch) => {
    const own = log.filter((d) => d.epoch === epoch);
    const lastAnswer = Math.max(0, ...own.filter((d) => d.responseCode !== null).map((d) => d.ts));
    return own.filter((d) => d.ts <= lastAnswer);
  });
  deliveryChecks(c, heard, maxSkewS, {
    acknowledged: { ticket: "The listener takes in a genuine delivery with a 2xx" },
    refused: { ticket: "refuses a forged or stale one with a 4xx" },
  });
  const serve = byLabel(e, "serve");
  const live = compareBoard(rowsOf(serve), truth(listened), atSync, 2);
  c.check("board_live_while_listening", !!serve && live.ok, { basis: LIVE, pass: 2, mandatory: true, level: "l3", detail: serve ? live.detail : "the listener did not run" });

  const catchup = byLabel(e, "catchup");
  if (!plumbing(c, "catchup_exit_ok", catchup, [BOARD], SYNC_EXIT)) return;
  const caught = compareBoard(rowsOf(catchup), truth(end));
  c.check("board_after_catch_up", caught.ok, { basis: MATCHES, pass: 2, mandatory: true, level: "l3", detail: caught.detail });

  // The week goes on: extensions (ended placements back to active) at one sync, the extensions ending at the next.
  const extendedRun = byLabel(e, "extended");
  if (!plumbing(c, "extended_sync_exit_ok", extendedRun, [BOARD], SYNC_EXIT)) return;
  const extension = byLabel(e, "extension_ended");
  if (!plumbing(c, "extension_end_sync_exit_ok", extension, [BOARD], SYNC_EXIT)) return;
  const extended = e.snapshots.extended[ROLE];
  const reended = e.snapshots.reended[ROLE];
  // The extensions end while the listener runs: what it pushed is on the board when it stops.
  const serveAgain = e.runs.filter((r) => r.label === "serve")[1];
  const liveAgain = compareBoard(rowsOf(serveAgain), truth(e.snapshots.reended_listened[ROLE]), truth(extended), 0);
  c.check("board_live_as_extensions_end", !!serveAgain && liveAgain.ok, {
    basis: LIVE,
    pass: 1,
    mandatory: true,
    level: "l3",
    detail: serveAgain ? liveAgain.detail : "the listener did not run as the extensions ended",
  });
  const later = [compareBoard(rowsOf(extendedRun), truth(extended)), compareBoard(rowsOf(extension), truth(reended))];
  c.check(
    "board_after_later_syncs",
    later.every((b) => b.ok),
    {
      basis: MATCHES,
      pass: 1,
      mandatory: true,
      level: "l1",
      detail: later.map((b, i) => `${["after the extensions", "after the extensions ended"][i]}: ${b.detail}`).join("; "),
    },
  );

  // Close-outs: from the request log, the note calls PlaceMint applied (a 500 after commit counts).
  const requests = e.requests[ROLE] ?? [];
  const notes = committedWrites(requests, { isCall: isNote, windowS: 3600, afterCommitFaults: AFTER_COMMIT });
  const phases = [
    { from: synced, to: end, epoch: epochs[1] },
    { from: end, to: extended, epoch: epochs[2] },
    { from: extended, to: reended, epoch: epochs[3] },
  ].map((p) =>
    closeOuts(
      p.from,
      p.to,
      notes.filter((r) => r.epoch === p.epoch),
    ),
  );
  const early = notes.filter((r) => !epochs.slice(1).includes(r.epoch));
  const [monday, , extensionEnds] = phases;
  c.check("closeouts_exactly_once", monday.ended.length > 0 && !monday.problems.length, {
    basis: ONCE,
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: monday.problems.join("; ") || `${monday.ended.length} placements ended between syncs, one close-out each`,
  });
  const reopenedEnds = extensionEnds.ended.filter((id) => monday.ended.includes(id));
  c.check("extension_closed_out_again", extensionEnds.ended.length > 0 && !extensionEnds.problems.length, {
    basis: AGAIN,
    pass: 2,
    mandatory: true,
    level: "l1",
    detail:
      extensionEnds.problems.join("; ") ||
      `${extensionEnds.ended.length} extended placements ended again, one close-out each (${reopenedEnds.length} closed out at an earlier ending: ${fewIds(reopenedEnds)})`,
  });
  const stray = phases.flatMap((p) => p.stray);
  c.check("no_close_out_of_what_did_not_end", !stray.length && !early.length && !phases[1].problems.length, {
    basis: { ticket: "none on a placement that did not end in between (the first `sync` closes nothing out: what ended before the board existed is not ours to close)" },
    pass: 1,
    mandatory: true,
    level: "l1",
    detail:
      [
        early.length && `${early.length} notes written around the first sync (${fewIds(early.map((r) => text(bodyOf(r).placement_id)))})`,
        stray.length && `notes on ${stray.length} placements that did not end between syncs (${fewIds(stray)})`,
        ...phases[1].problems,
      ]
        .filter(Boolean)
        .join("; ") || "no close-out on a placement that did not end between syncs",
  });
  const otherWrites = committedWrites(requests, { isCall: (r) => isWrite(r) && !isNote(r), windowS: 3600, afterCommitFaults: [] });
  c.check("nothing_else_written", otherWrites.length === 0, {
    basis: { ticket: "Nothing else is written to PlaceMint." },
    pass: 1,
    mandatory: true,
    detail: otherWrites.length ? `${otherWrites.length} other writes (${fewIds(otherWrites.map((r) => `${r.method} ${r.path}`))})` : "only close-out notes were written",
  });
}

export default defineTask({
  id: "task-0052",
  title: "PlaceMint desk board: built from the fee statement export, kept live by webhooks, caught up, ended placements closed out once, through a bad Monday",
  kind: "build",
  roles: { [ROLE]: { vendor: "placemint", checkpoint: 2 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling", "webhooks", "writeback"],
  primaryMechanic: "compounding_faults_summit",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "serve"] },
  outputs: { [BOARD]: csvRows([...COLUMNS], BoardRow) },
  timeLimitS: 60,
  scenarios: [{ name: "monday_desk", judge: (e, c, ctx) => judgeMonday(e, c, ctx.vendors[ROLE]?.webhooks?.maxSkewS ?? 300) }],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs",
    token_reused_not_reminted: "reuse an access token for as long as it lasts",
    retry_after_honored: "wait as long as PlaceMint asks when it asks us to slow down",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "By the time that `sync` exits, every such ending carries exactly one close-out note: never two, whatever happens on the way",
    webhook_bad_signature_rejected: "refuses a forged or stale one with a 4xx",
    webhook_stale_timestamp_rejected: "refuses a forged or stale one with a 4xx",
  },
});
