import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { readConfirmations } from "./confirmations.ts";
import { Interviewly } from "./interviewly.ts";
import { localToUnixS } from "./local-time.ts";
import { canonicalId, readSheet } from "./sheet.ts";

/** Whether a run waits for the moves it sent itself (else it reports them pending for a later run to settle). */
const WAIT_FOR_NEW_MOVES = true;
/** The ticket's bound on waiting for confirmations. */
const WAIT_MS = 45_000;
const POLL_MS = 250;

/** Where one line of the sheet stands; kept in `push-state.json` between runs. */
interface Move {
  ref: string;
  interview_id: string;
  status: "committed" | "pending" | "rejected";
  starts_at: number | null;
  request_id: string | null;
  confirmation_event_id: string | null;
  error: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function writeJson(path: string, value: unknown): void {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** Interviewly's words for a refusal. */
function reason(status: number, body: unknown): string {
  const b = body as { message?: unknown; code?: unknown } | null;
  return typeof b?.message === "string" ? b.message : `HTTP ${status}`;
}

/**
 * Applies the sheet. Each line's move is sent once, under an Idempotency-Key
 * derived from its ref, so a retry after a lost answer and any later run get
 * Interviewly's stored answer (the same request id) instead of a second move.
 * A 202 only queues the move: it counts as committed when the listener has
 * recorded the `interview.updated` event carrying its request id, and as
 * rejected (in Interviewly's words, never sent again) when Interviewly
 * turned it down with `interview.reschedule_failed`.
 */
export async function push(config: Config): Promise<void> {
  const api = new Interviewly(config);
  const statePath = join(config.outputDir, "push-state.json");
  const moves: Record<string, Move> = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : {};
  const save = () => writeJson(statePath, moves);
  const sentNow = new Set<string>();

  for (const line of readSheet(join(process.cwd(), "input", "reschedules.csv"))) {
    const id = canonicalId(line.typedId);
    const known = moves[line.ref];
    if (known && (known.request_id !== null || known.status === "rejected")) continue;
    const move: Move = { ref: line.ref, interview_id: id, status: "rejected", starts_at: null, request_id: null, confirmation_event_id: null, error: null };
    moves[line.ref] = move;
    // The interview's own zone decides the instant, on the new date's rules.
    const read = await api.call("GET", `/v1/interviews/${encodeURIComponent(id)}`, undefined, { "cache-control": "no-cache" });
    if (read.status !== 200) {
      move.error = read.status === 404 || read.status === 410 ? `no live interview ${id}: ${reason(read.status, read.body)}` : reason(read.status, read.body);
      save();
      continue;
    }
    const zone = String((read.body as Record<string, unknown>).time_zone);
    const startsAt = localToUnixS(line.newStart, zone);
    if (startsAt === null) {
      move.error = `new_start ${JSON.stringify(line.newStart)} is not a local time in ${zone}`;
      save();
      continue;
    }
    move.starts_at = startsAt;
    let answer = await api.call("PATCH", `/v1/interviews/${encodeURIComponent(id)}`, { starts_at: startsAt }, { "idempotency-key": `reschedule-${line.ref}` });
    for (let attempt = 1; answer.status >= 500 && attempt <= 4; attempt++) {
      await sleep(200 * attempt);
      answer = await api.call("PATCH", `/v1/interviews/${encodeURIComponent(id)}`, { starts_at: startsAt }, { "idempotency-key": `reschedule-${line.ref}` });
    }
    if (answer.status === 202) {
      move.status = "pending";
      move.request_id = String((answer.body as Record<string, unknown>).request_id);
      sentNow.add(line.ref);
    } else if (answer.status >= 500) {
      // Unknown whether it was queued: a later run resends under the same key and gets Interviewly's answer.
      delete moves[line.ref];
      console.error(`${line.ref}: ${answer.status} after retries, left for the next run`);
    } else {
      move.error = reason(answer.status, answer.body);
    }
    save();
  }

  // Wait for the confirmations; reading the waiting interviews keeps Interviewly's queue moving.
  const waiting = () => Object.values(moves).filter((m) => m.status === "pending" && m.request_id !== null && (WAIT_FOR_NEW_MOVES || !sentNow.has(m.ref)));
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const confirmed = readConfirmations(config.outputDir);
    for (const m of Object.values(moves)) {
      const c = m.request_id !== null && m.status === "pending" ? confirmed.get(m.request_id) : undefined;
      if (c?.refused) Object.assign(m, { status: "rejected", error: c.refused.message });
      else if (c) Object.assign(m, { status: "committed", confirmation_event_id: c.event_id });
    }
    const left = waiting();
    if (!left.length || Date.now() > deadline) break;
    for (const m of left) await api.call("GET", `/v1/interviews/${encodeURIComponent(m.interview_id)}`, undefined, { "cache-control": "no-cache" });
    await sleep(POLL_MS);
  }
  save();

  const sheet = readSheet(join(process.cwd(), "input", "reschedules.csv"));
  const rows = sheet
    .map((l) => moves[l.ref] ?? { ref: l.ref, interview_id: canonicalId(l.typedId), status: "pending", starts_at: null, request_id: null, confirmation_event_id: null, error: null })
    .sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
  writeJson(join(config.outputDir, "reschedule_results.json"), rows);
  console.error(rows.map((r) => `${r.ref} ${r.status}`).join(", "));
}
