import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { Mirror } from "./mirror.ts";
import { TalentLoopClient } from "./talentloop-client.ts";

/** Nudge's outbox of follow-up notes, exported before each run. */
export const QUEUE_FILE = "input/follow-ups.json";
export const RESULT_FILE = "writeback_result.json";
const STATE_FILE = "push-state.json";

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

/** Results settled by earlier runs, by `client_ref`; kept so a rerun does not write twice. */
export function loadState(dir: string): Map<string, Result> {
  const path = join(dir, STATE_FILE);
  const rows: Result[] = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : [];
  return new Map(rows.map((r) => [r.client_ref, r]));
}

export function saveResults(dir: string, results: Map<string, Result>, queue: FollowUp[]): void {
  mkdirSync(dir, { recursive: true });
  writeJson(join(dir, STATE_FILE), [...results.values()]);
  const rows = queue.map((f) => results.get(f.client_ref)).filter((r): r is Result => r !== undefined);
  rows.sort((a, b) => (a.client_ref < b.client_ref ? -1 : a.client_ref > b.client_ref ? 1 : 0));
  writeJson(join(dir, RESULT_FILE), rows);
}

function message(body: unknown): string {
  const error = (body as { error?: { message?: string } } | null)?.error;
  return error?.message ?? JSON.stringify(body);
}

/** Writes Nudge's follow-ups as notes on the candidates' TalentLoop profiles. */
export async function push(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const mirror = new Mirror(config.outputDir);
  const queue = readQueue();
  const results = loadState(config.outputDir);
  for (const f of queue) {
    if (results.has(f.client_ref)) continue;
    const known = mirror.rows.candidate.get(f.candidate_id);
    let result: Result;
    if (known?.is_deleted) {
      result = { client_ref: f.client_ref, candidate_id: f.candidate_id, status: "candidate_deleted", note_id: null, detail: "the candidate was deleted in TalentLoop" };
    } else {
      const { status, body } = await client.request("POST", `/v1/candidates/${encodeURIComponent(f.candidate_id)}/notes`, { json: noteFor(f) });
      if (status === 200 || status === 201) result = { client_ref: f.client_ref, candidate_id: f.candidate_id, status: "delivered", note_id: String((body as { id: string }).id), detail: null };
      else if (status === 404) result = { client_ref: f.client_ref, candidate_id: f.candidate_id, status: "candidate_missing", note_id: null, detail: message(body) };
      else result = { client_ref: f.client_ref, candidate_id: f.candidate_id, status: "rejected", note_id: null, detail: message(body) };
    }
    results.set(f.client_ref, result);
    saveResults(config.outputDir, results, queue);
  }
  saveResults(config.outputDir, results, queue);
  console.error(`push: ${queue.length} follow-ups, ${[...results.values()].filter((r) => r.status === "delivered").length} delivered`);
}
