import { describe, expect, it } from "vitest";
import { CheckRecorder } from "../../../evidence/recorder.ts";
import type { Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { judgeRerun, rerunCreations } from "./rerun.ts";

const rec = (id: string, text = ""): SnapshotRecord => ({ id, deleted: false, record: { text } });
const snap = (notes: SnapshotRecord[], candidates: SnapshotRecord[] = []): Snapshot => ({ checkpoint: 0, epoch: 1, entities: { note: notes, candidate: candidates } });
const carries = (r: SnapshotRecord, row: { text: string }) => r.record.text === row.text;
const first = snap([rec("n1", "a")], [rec("c1")]);
const CHECK = { name: "rerun_created_nothing_twice", basis: { ticket: "A rerun must leave the vendor as one clean run would." }, firstRun: "first run", vendor: "StaffLine", records: "notes" };

describe("rerunCreations", () => {
  it("accepts a new note per missing row, once", () => {
    expect(rerunCreations(first, snap([rec("n1", "a"), rec("n2", "b")], [rec("c1")]), [{ text: "b" }], carries, "note")).toEqual({ made: 1, extra: [] });
  });
  it("counts a second note for the same row, a note for no missing row and any other new record as extra", () => {
    const final = snap([rec("n1", "a"), rec("n2", "b"), rec("n3", "b"), rec("n4", "a")], [rec("c1"), rec("c2")]);
    expect(rerunCreations(first, final, [{ text: "b" }], carries, "note")).toEqual({ made: 4, extra: ["note n3", "note n4", "candidate c2"] });
  });
});

describe("judgeRerun", () => {
  const judge = (final: Snapshot, missing: { text: string }[]) => {
    const c = new CheckRecorder();
    judgeRerun(c, CHECK, first, final, missing, carries, "note");
    return c.checks;
  };
  it("records one mandatory l3 check worth 2 under the task's name and basis", () => {
    expect(judge(first, [])).toEqual([{ name: CHECK.name, ok: true, detail: "the rerun created nothing", pass: 2, fail: 0, mandatory: true, level: "l3", value: 2, basis: CHECK.basis }]);
  });
  it("says what the rerun made up for, and fails a repeat", () => {
    expect(judge(snap([rec("n1", "a"), rec("n2", "b")]), [{ text: "b" }])[0]).toMatchObject({ ok: true, detail: "the rerun created 1 notes, each one the first run had left out" });
    expect(judge(snap([rec("n1", "a"), rec("n2", "a")]), [])[0]).toMatchObject({
      ok: false,
      value: 0,
      detail: "the rerun created 1 records the first run had already written or StaffLine should not hold (note n2)",
    });
  });
});
