import { describe, expect, it } from "vitest";
import { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { JudgeContext } from "../../schema/task.ts";
import task, { ATS, LEGACY } from "./task.ts";

const person = (id: string, n: number, deleted = false): SnapshotRecord => ({
  id,
  deleted,
  record: { id, first_name: `Ann${n}`, last_name: "Lee", email: `ann${n}.lee@example.com`, phone: n % 2 ? "+14165550100" : null, city: "Toronto", desired_title: "Welder", mod_ts: n },
});
/** Bullpen's copy of a StaffLine candidate, as the ticket maps it. */
const copy = (id: string, of: SnapshotRecord, over: Record<string, unknown> = {}): SnapshotRecord => {
  const r = of.record;
  return {
    id,
    deleted: false,
    record: { id, first_name: r.first_name, last_name: r.last_name, email: r.email, mobile_phone: r.phone, city: r.city, current_title: r.desired_title, branch: "TOR", source: "import", ...over },
  };
};
const snap = (entity: string, records: SnapshotRecord[]): Snapshot => ({ checkpoint: 0, epoch: 1, entities: { [entity]: records } });
const run = (label: string, rows: unknown[]): ConnectorRun => ({
  label,
  args: ["migrate"],
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  stderrTail: "",
  outputs: { "candidate-map.json": { present: true, parsed: true, value: rows } },
});

const [a, b, gone] = [person("cand_0001", 1), person("cand_0002", 2), person("cand_0003", 3, true)];
const later = person("cand_0004", 4);
const own = { id: "C-0000001", deleted: false, record: { id: "C-0000001", email: "someone@else.example", branch: "NYC" } };
const [ca, cb, cl] = [copy("C-0000301", a), copy("C-0000302", b), copy("C-0000303", later)];

/** Night one copies a and b (gone was deleted before); by night two StaffLine deleted b and registered `later`. */
function evidence(
  over: { cutover?: SnapshotRecord[]; stopped?: boolean; nextStart?: SnapshotRecord[]; next?: SnapshotRecord[]; nextRows?: unknown[]; legacyRequests?: Partial<RequestLogEntry>[] } = {},
): ScenarioEvidence {
  const row = (s: SnapshotRecord, c: SnapshotRecord, deleted: boolean) => ({ staffline_id: s.id, bullpen_id: c.id, deleted_in_staffline: deleted });
  return {
    name: "replatform_backfill",
    epochs: {},
    runs: [
      { ...run("cutover_night", [row(a, ca, false), row(b, cb, false)]), ...(over.stopped ? { exitCode: null, timedOut: true } : {}) },
      run("next_night", over.nextRows ?? [row(a, ca, false), row(b, cb, true), row(later, cl, false)]),
      // A quiet third night: StaffLine as the second found it.
      run("third_night", over.nextRows ?? [row(a, ca, false), row(b, cb, true), row(later, cl, false)]),
    ],
    snapshots: {
      before: { [LEGACY]: snap("candidate", [a, b, gone]), [ATS]: snap("candidate", [own]) },
      cutover: { [ATS]: snap("candidate", over.cutover ?? [own, ca, cb]) },
      next_start: { [LEGACY]: snap("candidate", over.nextStart ?? [a, { ...b, deleted: true }, gone, later]) },
      next: { [ATS]: snap("candidate", over.next ?? [own, ca, cb, cl]) },
      third_start: { [LEGACY]: snap("candidate", over.nextStart ?? [a, { ...b, deleted: true }, gone, later]) },
      third: { [ATS]: snap("candidate", over.next ?? [own, ca, cb, cl]) },
    },
    notes: {},
    requests: { [LEGACY]: (over.legacyRequests ?? [{ seq: 1, method: "GET", path: "/svc/candidates" }]) as RequestLogEntry[] },
    tokens: {},
    webhooks: {},
    secrets: {},
  };
}

function verdict(e: ScenarioEvidence): Record<string, boolean> {
  const c = new CheckRecorder();
  task.scenarios[0].judge(e, c, {} as JudgeContext);
  return Object.fromEntries(c.checks.map((k) => [k.name, k.ok]));
}

describe("task-0037's judge", () => {
  it("passes a back-fill that copied each candidate once and told the deletions", () => {
    expect(Object.values(verdict(evidence())).every(Boolean)).toBe(true);
  });

  it("fails a second registration of someone already copied (a lost answer retried without its key)", () => {
    const v = verdict(evidence({ next: [own, ca, cb, cl, copy("C-0000304", a)] }));
    expect(v.cutover_copied_once).toBe(false);
    expect(v.cutover_copied_right).toBe(true);
  });

  it("fails a copy that is missing, or carries another branch", () => {
    expect(verdict(evidence({ next: [own, ca, cb] })).cutover_copied_once).toBe(false);
    expect(verdict(evidence({ next: [own, ca, cb, copy("C-0000303", later, { branch: "NYC" })] })).cutover_copied_once).toBe(false);
  });

  it("lets the scheduler stop the cut-over night halfway, and the next night finish the copy", () => {
    const v = verdict(
      evidence({
        cutover: [own, ca],
        stopped: true,
        nextStart: [a, b, gone, later],
        nextRows: [a, b, later].map((s, i) => ({ staffline_id: s.id, bullpen_id: [ca, cb, cl][i].id, deleted_in_staffline: false })),
      }),
    );
    expect(Object.values(v).every(Boolean)).toBe(true);
  });

  it("fails a cut-over night that exited 0 with someone left out", () => {
    expect(verdict(evidence({ cutover: [own, ca] })).cutover_copied_right).toBe(false);
  });

  it("fails a copy, on a later night, of someone StaffLine deleted before they were copied", () => {
    // Stopped after a: b was deleted in StaffLine before the next night, so it must not reach Bullpen.
    const rows = [a, b, later].map((s, i) => ({ staffline_id: s.id, bullpen_id: [ca, cb, cl][i].id, deleted_in_staffline: s === b }));
    const v = verdict(evidence({ cutover: [own, ca], stopped: true, nextRows: rows }));
    expect(v.cutover_copied_right).toBe(true);
    expect(v.cutover_copied_once).toBe(false);
    expect(v.next_map_true).toBe(false);
  });

  it("fails a map that misses a deletion StaffLine made after the copy", () => {
    const rows = [a, b, later].map((s, i) => ({ staffline_id: s.id, bullpen_id: [ca, cb, cl][i].id, deleted_in_staffline: false }));
    expect(verdict(evidence({ nextRows: rows })).next_map_true).toBe(false);
  });

  it("fails any write sent to StaffLine", () => {
    const v = verdict(evidence({ legacyRequests: [{ seq: 7, method: "POST", path: "/svc/rpc/createNote" }] }));
    expect(v.staffline_not_written).toBe(false);
  });
});
