import { describe, expect, it } from "vitest";
import { req } from "../../../test/node/grading/log-fixtures.ts";
import type { ConnectorRun, ScenarioEvidence } from "../../../evidence/verdict.ts";
import talentloop from "../../vendors/talentloop.ts";
import { droppedDeletes, unconfirmedRemovals } from "./dropped-deletes.ts";

const ENTITIES = [
  { entity: "candidate", file: "candidates.json" },
  { entity: "application", file: "applications.json" },
];
const run = (rows: Record<string, { source_id: string; is_deleted: boolean }[]>): ConnectorRun => ({
  label: "sync",
  args: [],
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  stderrTail: "",
  outputs: Object.fromEntries(Object.entries(rows).map(([file, value]) => [file, { present: true, parsed: true, value }])),
});
const evidence = (requests: ScenarioEvidence["requests"]["ats"]): ScenarioEvidence => ({
  name: "s",
  epochs: { ats: [1, 2] },
  runs: [],
  snapshots: {},
  notes: {},
  requests: { ats: requests },
  tokens: {},
  webhooks: {},
  secrets: {},
});

describe("droppedDeletes", () => {
  it("counts the armed drop faults of the entity's delete events, and no other", () => {
    expect(droppedDeletes(talentloop, ["tl-drop-first-candidate-delete", "tl-drop-first-application-delete"], "candidate")).toBe(1);
    expect(droppedDeletes(talentloop, ["tl-drop-first-candidate-delete"], "application")).toBe(0);
    expect(droppedDeletes(talentloop, ["tl-duplicate-storm"], "candidate")).toBe(0);
    expect(droppedDeletes(undefined, ["tl-drop-first-candidate-delete"], "candidate")).toBe(0);
  });
});

describe("unconfirmedRemovals", () => {
  const before = run({
    "candidates.json": [
      { source_id: "c1", is_deleted: false },
      { source_id: "c2", is_deleted: false },
      { source_id: "c3", is_deleted: true },
    ],
    "applications.json": [{ source_id: "a 1", is_deleted: false }],
  });
  const after = run({
    "candidates.json": [
      { source_id: "c1", is_deleted: true },
      { source_id: "c2", is_deleted: true },
      { source_id: "c3", is_deleted: true },
      { source_id: "c4", is_deleted: true },
    ],
    "applications.json": [{ source_id: "a 1", is_deleted: true }],
  });

  it("lists rows newly marked removed, and those no read of the record in the last epoch answered with a confirming status", () => {
    const e = evidence([
      req({ epoch: 2, path: "/v1/candidates/c1", status: 410 }),
      req({ epoch: 1, path: "/v1/candidates/c2", status: 410 }),
      req({ epoch: 2, path: "/v1/applications/a%201", status: 404 }),
    ]);
    expect(unconfirmedRemovals(e, "ats", talentloop, ENTITIES, { before, after }, [410])).toEqual({ marked: ["c1", "c2", "a 1"], unconfirmed: ["c2", "a 1"] });
    expect(unconfirmedRemovals(e, "ats", talentloop, ENTITIES, { before, after }, [410, 404])).toEqual({ marked: ["c1", "c2", "a 1"], unconfirmed: ["c2"] });
  });

  it("marks nothing when no row went from live to removed, and confirms nothing without the vendor's routes", () => {
    expect(unconfirmedRemovals(evidence([]), "ats", talentloop, ENTITIES, { before: after, after }, [410])).toEqual({ marked: [], unconfirmed: [] });
    const e = evidence([req({ epoch: 2, path: "/v1/candidates/c1", status: 410 })]);
    expect(unconfirmedRemovals(e, "ats", undefined, ENTITIES, { before, after }, [410]).unconfirmed).toEqual(["c1", "c2", "a 1"]);
  });
});
