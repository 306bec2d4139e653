import { describe, expect, it } from "vitest";
import type { Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { type ChangeRow, changeKey, changeLogProblems, changesBetween } from "./change-log.ts";

const WORDS = { vendor: "TalentForge", verb: "logged", delivered: "authentically delivered" };
const row = (seq: number, id: string, at: string, via: "webhook" | "poll" = "poll", eventId: string | null = null): ChangeRow => ({
  seq,
  entity: "candidate",
  source_id: id,
  updated_at: at,
  is_deleted: false,
  via,
  event_id: eventId,
});
const T1 = "2025-01-01T00:00:00Z";
const T2 = "2025-01-02T00:00:00Z";
const expected = new Map([
  [changeKey("candidate", "c1", T1, false), 1],
  [changeKey("candidate", "c1", T2, false), 1],
]);

describe("changeKey", () => {
  it("names a record's version and marks a delete", () => {
    expect(changeKey("candidate", "c1", T1, false)).toBe(`candidate c1 @ ${T1}`);
    expect(changeKey("candidate", "c1", T1, true)).toBe(`candidate c1 @ ${T1} (deleted)`);
  });
});

describe("changeLogProblems", () => {
  it("finds nothing wrong with each change once, in order, attributed", () => {
    expect(changeLogProblems([row(1, "c1", T1), row(2, "c1", T2, "webhook", "evt_1")], expected, new Set(["evt_1"]), WORDS)).toEqual([]);
  });
  it("names a gap in seq, a change twice, one missing and one made up", () => {
    const rows = [row(1, "c1", T1), row(3, "c1", T1), row(4, "c9", T1)];
    expect(changeLogProblems(rows, expected, new Set(), WORDS)).toEqual([
      "row 2 has seq 3",
      `1 changes logged more than once (candidate c1 @ ${T1} ×2)`,
      `1 changes never logged (candidate c1 @ ${T2})`,
      `1 rows for no change TalentForge made (candidate c9 @ ${T1})`,
      "1 records logged out of version order (candidate c1)",
    ]);
  });
  it("names versions out of order, an unknown via and a webhook row no delivery carried, in the task's words", () => {
    const words = { vendor: "TalentForge", verb: "journalled", delivered: "delivered" };
    const rows = [row(1, "c1", T2, "webhook", "evt_9"), { ...row(2, "c1", T1), via: "email" }];
    expect(changeLogProblems(rows, expected, new Set(["evt_1"]), words)).toEqual([
      "1 records journalled out of version order (candidate c1)",
      '1 rows with via "email"',
      "1 webhook rows name no event TalentForge delivered (evt_9)",
    ]);
  });
});

describe("changesBetween", () => {
  const rec = (id: string, at: string, extra: Record<string, unknown> = {}, deleted = false): SnapshotRecord => ({ id, deleted, record: { id, updated_at: at, ...extra } });
  const snap = (candidate: SnapshotRecord[], application: SnapshotRecord[] = []): Snapshot => ({ checkpoint: 0, epoch: 1, entities: { candidate, application } });

  it("keys each new, changed or deleted record at its new version, and nothing unchanged", () => {
    const a = snap([rec("c1", "t1"), rec("c2", "t1"), rec("c3", "t1")], [rec("a1", "t1")]);
    const b = snap([rec("c1", "t1"), rec("c2", "t2", { n: 1 }), rec("c3", "t1", {}, true), rec("c4", "t2")], [rec("a1", "t1")]);
    expect([...changesBetween(a, b, ["candidate", "application"], "updated_at")]).toEqual([
      [changeKey("candidate", "c2", "t2", false), { entity: "candidate", id: "c2" }],
      [changeKey("candidate", "c3", "t1", true), { entity: "candidate", id: "c3" }],
      [changeKey("candidate", "c4", "t2", false), { entity: "candidate", id: "c4" }],
    ]);
  });

  it("reads only the entities named, and the version from the field named", () => {
    const a = snap([], []);
    const b = snap([rec("c1", "t1", { modified: "m1" })], [rec("a1", "t1")]);
    expect([...changesBetween(a, b, ["candidate"], "modified").keys()]).toEqual([changeKey("candidate", "c1", "m1", false)]);
  });
});
