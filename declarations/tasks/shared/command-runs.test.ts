import { describe, expect, it } from "vitest";
import { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, OutputFile, ScenarioEvidence } from "../../../evidence/verdict.ts";
import { commandsRanOk, recordCommandsRan, runProblems, usableRun } from "./command-runs.ts";

const FILES = ["a.json", "b.json"];
const rowsFile: OutputFile = { present: true, parsed: true, value: [] };
const run = (label: string, over: Partial<ConnectorRun> = {}): ConnectorRun => ({
  label,
  args: [],
  exitCode: 0,
  timedOut: false,
  durationMs: 1,
  stderrTail: "",
  outputs: { "a.json": rowsFile, "b.json": rowsFile },
  ...over,
});
const evidence = (runs: ConnectorRun[]): ScenarioEvidence => ({ name: "s", epochs: {}, runs, snapshots: {}, notes: {}, requests: {}, tokens: {}, webhooks: {}, secrets: {} });

describe("usableRun", () => {
  it("takes a run that exited 0 in time with every file readable, and nothing less", () => {
    expect(usableRun(run("sync"), FILES)).toBe(true);
    expect(usableRun(run("sync", { exitCode: 1 }), FILES)).toBe(false);
    expect(usableRun(run("sync", { exitCode: null, timedOut: true }), FILES)).toBe(false);
    expect(usableRun(run("sync", { outputs: { "a.json": rowsFile, "b.json": { present: false } } }), FILES)).toBe(false);
    expect(usableRun(run("sync", { outputs: { "a.json": rowsFile, "b.json": { present: true, parsed: true, value: {} } } }), FILES)).toBe(false);
  });
});

describe("runProblems", () => {
  it("names each label's first problem, in the labels' order", () => {
    const e = evidence([
      run("serve", { exitCode: 2, stderrTail: "Error: port in use\n" }),
      run("sync", { outputs: { "a.json": rowsFile, "b.json": { present: true, parsed: false, error: "b.json: not JSON" } } }),
      run("rerun", { timedOut: true, exitCode: null }),
    ]);
    expect(runProblems(e, ["sync", "serve", "reconcile", "rerun"], FILES)).toEqual(["sync: b.json: not JSON", "serve exited 2: Error: port in use", "reconcile did not run", "rerun timed out"]);
    expect(runProblems(evidence([run("sync")]), ["sync"], FILES)).toEqual([]);
  });
});

describe("commandsRanOk", () => {
  it("records a 0/-1 plumbing check on the ticket's sentence and says why it failed", () => {
    const c = new CheckRecorder();
    expect(commandsRanOk(c, "storm_runs_ok", evidence([run("sync")]), ["sync", "serve"], FILES)).toBe(false);
    expect(commandsRanOk(c, "gap_runs_ok", evidence([run("sync"), run("serve")]), ["sync", "serve"], FILES)).toBe(true);
    expect(c.checks.map((k) => [k.name, k.ok, k.value, k.pass, k.fail, k.detail, k.basis])).toEqual([
      ["storm_runs_ok", false, -1, 0, -1, "serve did not run", { ticket: "Every command exits 0" }],
      ["gap_runs_ok", true, 0, 0, -1, "every command exited 0, outputs readable", { ticket: "Every command exits 0" }],
    ]);
  });
});

describe("recordCommandsRan", () => {
  it("passes on no problems and fails naming every one a task gathered itself", () => {
    const c = new CheckRecorder();
    expect(recordCommandsRan(c, "ack_runs_ok", ["the listener ran 0 times, not 1", "dump: a.json was not written"])).toBe(false);
    expect(recordCommandsRan(c, "drain_runs_ok", [])).toBe(true);
    expect(c.checks.map((k) => [k.ok, k.value, k.detail])).toEqual([
      [false, -1, "the listener ran 0 times, not 1; dump: a.json was not written"],
      [true, 0, "every command exited 0, outputs readable"],
    ]);
  });
});
