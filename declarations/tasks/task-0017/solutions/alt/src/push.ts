import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { Mirror } from "./mirror.ts";
import { type Answer, TalentLoopClient } from "./talentloop-client.ts";

/** Nudge's outbox of follow-up notes, exported before each run. */
export const QUEUE_FILE = "input/follow-ups.json";
export const RESULT_FILE = "writeback_result.json";
const STATE_FILE = "push-state.json";
/** Times one follow-up is sent while its answers keep getting lost. */
const SENDS = 3;

/** One follow-up Nudge wants on a candidate's TalentLoop profile. */
export interface FollowUp {
  client_ref: string;
  candidate_id: string;
  author: string;
  body: string;
}

export type Status = "delivered" | "candidate_deleted" | "candidate_missing" | "rejected";

/** One row of `writeback_result.json`. */
export interface Result {
  client_ref: string;
  candidate_id: string;
  status: Status;
  note_id: string | null;
  detail: string | null;
}

/** What the state file keeps per follow-up: a settled result, or `sending` while a write's outcome is unknown. */
type Entry = Result | { client_ref: string; candidate_id: string; status: "sending" };

/** The note a follow-up becomes: Nudge's text, then its reference so recruiters can trace it. */
export function noteFor(f: FollowUp): { body: string; author: string } {
  return { body: `${f.body}\n\n[Nudge ${f.client_ref}]`, author: f.author };
}

export function readQueue(): FollowUp[] {
  return JSON.parse(readFileSync(QUEUE_FILE, "utf8")) as FollowUp[];
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(value, null, 2));
  renameSync(`${path}.tmp`, path);
}

/** What earlier runs left, by `client_ref`; kept so a rerun neither writes twice nor forgets a write in flight. */
function loadState(dir: string): Map<string, Entry> {
  const path = join(dir, STATE_FILE);
  const rows: Entry[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.client_ref, r]));
}

function save(dir: string, state: Map<string, Entry>, queue: FollowUp[]): void {
  mkdirSync(dir, { recursive: true });
  writeJson(join(dir, STATE_FILE), [...state.values()]);
  const rows = queue.map((f) => state.get(f.client_ref)).filter((r): r is Result => r !== undefined && r.status !== "sending");
  rows.sort((a, b) => (a.client_ref < b.client_ref ? -1 : a.client_ref > b.client_ref ? 1 : 0));
  writeJson(join(dir, RESULT_FILE), rows);
}

function message(body: unknown): string {
  const error = (body as { error?: { message?: string } } | null)?.error;
  return error?.message ?? JSON.stringify(body);
}

const notesPath = (candidateId: string) => `/v1/candidates/${encodeURIComponent(candidateId)}/notes`;

/** The note this follow-up already left on the candidate, if any: TalentLoop has no idempotency keys, so the note's text is the only trace. */
async function findNote(client: TalentLoopClient, f: FollowUp): Promise<string | null> {
  const { status } = await client.request("GET", `/v1/candidates/${encodeURIComponent(f.candidate_id)}`);
  if (status !== 200) return null;
  const want = noteFor(f).body;
  const note = (await client.listAll(notesPath(f.candidate_id))).find((n) => n.body === want);
  return note ? String(note.id) : null;
}

/** Why TalentLoop would not take a note on this candidate: 410 when it was deleted, 404 when it never existed. */
async function absentCandidate(client: TalentLoopClient, mirror: Mirror, f: FollowUp, refusal: Answer): Promise<Result> {
  const { status } = await client.request("GET", `/v1/candidates/${encodeURIComponent(f.candidate_id)}`);
  const base = { client_ref: f.client_ref, candidate_id: f.candidate_id, note_id: null };
  if (status === 410) {
    // Its delete event never reached the listener: the hub learns it here, and Nudge reads it from the hub.
    mirror.remove("candidate", f.candidate_id);
    mirror.save();
    return { ...base, status: "candidate_deleted", detail: `TalentLoop deleted candidate ${f.candidate_id}` };
  }
  if (status === 404) return { ...base, status: "candidate_missing", detail: message(refusal.body) };
  throw new Error(`candidate ${f.candidate_id}: notes refused with ${refusal.status} but the candidate reads ${status}`);
}

/** Settles one follow-up: writes its note at most once, whatever answers get lost on the way. */
async function settle(client: TalentLoopClient, mirror: Mirror, f: FollowUp, inFlight: boolean, mark: () => void): Promise<Result> {
  const base = { client_ref: f.client_ref, candidate_id: f.candidate_id };
  if (mirror.rows.candidate.get(f.candidate_id)?.is_deleted) return { ...base, status: "candidate_deleted", note_id: null, detail: `TalentLoop deleted candidate ${f.candidate_id}` };
  let unsure = inFlight;
  for (let send = 1; send <= SENDS; send++) {
    if (unsure) {
      const existing = await findNote(client, f);
      if (existing) return { ...base, status: "delivered", note_id: existing, detail: null };
    }
    mark();
    const answer = await client.request("POST", notesPath(f.candidate_id), { json: noteFor(f) });
    if (answer.lost) {
      console.error(`${f.client_ref}: answer lost (${answer.status || "no answer"}); reading back before sending again`);
      unsure = true;
      continue;
    }
    if (answer.status === 200 || answer.status === 201) {
      const body = answer.body as { id?: unknown; data?: { id?: unknown } };
      return { ...base, status: "delivered", note_id: String(body.id ?? body.data?.id), detail: null };
    }
    if (answer.status === 404) return absentCandidate(client, mirror, f, answer);
    return { ...base, status: "rejected", note_id: null, detail: message(answer.body) };
  }
  throw new Error(`${f.client_ref}: TalentLoop kept failing; the next run settles it`);
}

/** Writes Nudge's follow-ups as notes on the candidates' TalentLoop profiles, each exactly once. */
export async function push(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const mirror = new Mirror(config.outputDir);
  const queue = readQueue();
  const state = loadState(config.outputDir);
  for (const f of queue) {
    const prior = state.get(f.client_ref);
    if (prior && prior.status !== "sending") continue;
    const result = await settle(client, mirror, f, prior?.status === "sending", () => {
      state.set(f.client_ref, { client_ref: f.client_ref, candidate_id: f.candidate_id, status: "sending" });
      save(config.outputDir, state, queue);
    });
    state.set(f.client_ref, result);
    save(config.outputDir, state, queue);
  }
  save(config.outputDir, state, queue);
  const results = [...state.values()];
  console.error(`push: ${queue.length} follow-ups, ${results.filter((r) => r.status === "delivered").length} delivered`);
}
