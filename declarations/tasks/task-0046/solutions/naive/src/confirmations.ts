import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * An event that settles a move, by its request id: `interview.updated` confirms it;
 * `interview.reschedule_failed` says Interviewly turned it down (`refused`, its words).
 */
export interface Confirmation {
  event_id: string;
  request_id: string;
  interview_id: string;
  starts_at: number;
  refused?: { code: string; message: string };
}

const FILE = "confirmations.jsonl";

/** The listener's side: one line per settling event taken in (appended, so the pusher can read it any time). */
export function recordConfirmation(dir: string, c: Confirmation): void {
  appendFileSync(join(dir, FILE), `${JSON.stringify(c)}\n`);
}

/** The pusher's side: the first settling event of each request id seen so far (a half-written last line is skipped). */
export function readConfirmations(dir: string): Map<string, Confirmation> {
  const path = join(dir, FILE);
  const out = new Map<string, Confirmation>();
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    try {
      const c = JSON.parse(line) as Confirmation;
      if (typeof c.request_id === "string" && !out.has(c.request_id)) out.set(c.request_id, c);
    } catch {
      // the line being written right now
    }
  }
  return out;
}
