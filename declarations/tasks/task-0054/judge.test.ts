import { describe, expect, it } from "vitest";
import { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ScenarioEvidence, SnapshotRecord } from "../../../evidence/verdict.ts";
import task, { ROLE, SHARED_BURST, SHARED_QUOTA } from "./task.ts";

const worker = (id: string, deleted = false): SnapshotRecord => ({ id, deleted, record: { id } });
const note = (id: string, workerId: string, deleted = false): SnapshotRecord => ({
  id,
  deleted,
  record: { id, worker_id: workerId, author: "Priya", visibility: "managers", body: `Note ${id}.`, created_at: "2025-10-26T01:30:00", updated_at: "2025-10-26T01:30:00" },
});
/** The row a right copy holds for a note (01:30 on the night the clocks go back: the first of its two moments). */
const row = (id: string, workerId: string) => ({
  note_id: id,
  worker_id: workerId,
  author: "Priya",
  visibility: "managers",
  body: `Note ${id}.`,
  created_utc: "2025-10-26T00:30:00Z",
  updated_utc: "2025-10-26T00:30:00Z",
});
const refused = (seq: number, fault: string): RequestLogEntry =>
  ({ seq, status: 429, faults: [fault], method: "GET", path: "/api/v3/workers/wkr_000001/notes", query: {}, headers: {} }) as unknown as RequestLogEntry;

/** A night: wkr_000001 live with two notes (nte_000003 deleted), wkr_000002's file deleted with one live note. */
function evidence(rows: unknown[], requests: RequestLogEntry[] = []): ScenarioEvidence {
  const night = {
    checkpoint: 5,
    epoch: 1,
    entities: { worker: [worker("wkr_000001"), worker("wkr_000002", true)], note: [note("nte_000001", "wkr_000001"), note("nte_000002", "wkr_000002"), note("nte_000003", "wkr_000001", true)] },
  };
  return {
    name: "group_night",
    epochs: {},
    runs: [{ label: "night", args: ["mirror"], exitCode: 0, timedOut: false, durationMs: 1, stderrTail: "", outputs: { "case_notes.json": { present: true, parsed: true, value: rows } } }],
    snapshots: { night: { [ROLE]: night } },
    notes: {},
    requests: { [ROLE]: requests },
    tokens: {},
    webhooks: {},
    secrets: {},
  };
}

function judged(e: ScenarioEvidence): Record<string, boolean> {
  const c = new CheckRecorder();
  task.scenarios[0].judge(e, c, { seed: 11, vendors: {} });
  return Object.fromEntries(c.checks.map((k) => [k.name, k.ok]));
}

describe("task-0054's judge", () => {
  it("takes the notes of a deleted staff file either way, and no deleted note", () => {
    expect(judged(evidence([row("nte_000001", "wkr_000001")])).every_note_once).toBe(true);
    expect(judged(evidence([row("nte_000001", "wkr_000001"), row("nte_000002", "wkr_000002")])).every_note_once).toBe(true);
    expect(judged(evidence([row("nte_000002", "wkr_000002")])).every_note_once).toBe(false);
    expect(judged(evidence([row("nte_000001", "wkr_000001"), row("nte_000003", "wkr_000001")])).every_note_once).toBe(false);
  });

  it("counts against the quota only the refusals of the quota the job ran dry, not the bureau's burst", () => {
    const rows = [row("nte_000001", "wkr_000001")];
    expect(judged(evidence(rows, [refused(21, SHARED_BURST)])).quota_not_run_dry).toBe(true);
    expect(judged(evidence(rows, [refused(141, SHARED_QUOTA)])).quota_not_run_dry).toBe(false);
  });
});
