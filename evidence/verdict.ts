import type { DeliveryLogEntry, RequestLogEntry, TokenLogEntry } from "./logs.ts";

/** Level of a check: l1 data correctness, l2 protocol conduct, l3 fault survival. */
export type CheckLevel = "l1" | "l2" | "l3";

/** Values a check may take. */
export type CheckValue = -1 | 0 | 1 | 2;

/**
 * Why a check exists: the ticket sentence it enforces (quoted verbatim from the
 * task's PROBLEM.md) or the documented or observable vendor behaviour it rests
 * on (one line). A mandatory check names a ticket sentence.
 */
export type CheckBasis = { ticket: string; vendor?: never } | { vendor: string; ticket?: never };

/** One graded assertion. */
export interface Check {
  name: string;
  ok: boolean;
  /** Why it passed or failed, for people; ignored when verdicts are compared. */
  detail: string;
  /** Value when ok. */
  pass: CheckValue;
  /** Value when not ok. */
  fail: CheckValue;
  /** A solve requires this check. */
  mandatory: boolean;
  level: CheckLevel;
  /** `pass` or `fail`, whichever applies. */
  value: CheckValue;
  /** The ticket sentence or vendor behaviour this check enforces. */
  basis: CheckBasis;
  /** The scenario whose judge or traffic recorded it (set by grading); for a check gold has and the run lacks, the scenario that should have. */
  scenario?: string;
  /** False for a check of gold's manifest that the run never recorded: listed failed at gold's fail value, as the scorer counts it. */
  recorded?: false;
}

/** An output file of the connector as the harness found it, read by its declared format and row schema (`error` says why not). */
export type OutputFile = { present: false } | { present: true; parsed: true; value: unknown } | { present: true; parsed: false; error: string };

/** One execution of the connector's entry command. */
export interface ConnectorRun {
  /** Name the scenario gave this run (`backfill`, `incremental`). */
  label: string;
  /** Arguments after the entry command. */
  args: string[];
  /** Exit code, or null when killed. */
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  /** Last lines of stderr, for diagnosis. */
  stderrTail: string;
  /** Declared output files, read after the run. */
  outputs: Record<string, OutputFile>;
}

/** A record as the vendor serves it (every optional field included), with its deletion state. */
export interface SnapshotRecord {
  id: string;
  deleted: boolean;
  record: Record<string, unknown>;
}

/** Ground truth of one role at one moment. */
export interface Snapshot {
  checkpoint: number;
  epoch: number;
  /** Entity name -> records in list order, deleted ones included. */
  entities: Record<string, SnapshotRecord[]>;
}

/** Everything one scenario left behind. */
export interface ScenarioEvidence {
  name: string;
  /** Role -> log epochs the scenario used. */
  epochs: Record<string, number[]>;
  runs: ConnectorRun[];
  /** Label -> role -> snapshot. */
  snapshots: Record<string, Record<string, Snapshot>>;
  /** Facts the drive recorded (timings it measured, ids it chose). */
  notes: Record<string, unknown>;
  /** Role -> request log rows of the scenario's epochs (filled when the run is sealed). */
  requests: Record<string, RequestLogEntry[]>;
  /** Role -> token log rows of the scenario's epochs. */
  tokens: Record<string, TokenLogEntry[]>;
  /** Role -> webhook delivery rows of the scenario's epochs. */
  webhooks: Record<string, DeliveryLogEntry[]>;
  /** Role -> secret values in force (credentials and every issued token), for leak checks. */
  secrets: Record<string, string[]>;
}

/** Error classes of a verdict that could not be graded normally. */
export type ErrorClass = "candidate_setup_failure" | "benchmark_infrastructure_failure" | "benchmark_verifier_failure";

/** The graded result of one run. */
export interface Verdict {
  schema: "wirebench-verdict/1";
  scorer: "task-score-v4-mandatory-gated";
  task: string;
  runId: string;
  seed: number;
  checks: Record<CheckLevel, Check[]>;
  raw: number;
  max: number;
  score: number;
  solved: boolean;
  error: { class: ErrorClass; message: string } | null;
  /**
   * Present (true) when the run was sealed by a participant: its connector ran
   * in the participant's own harness, so its exit codes and outputs are the
   * participant's word. Published leaderboards leave such runs out.
   */
  selfReported?: true;
}

/** The checks gold earns on a task, committed per task and used as the scoring reference. */
export interface GoldManifest {
  scorer: "task-score-v4-mandatory-gated";
  task: string;
  /** `scenario`: which scenario recorded the check (first one, when several did); absent in manifests written before it was kept. */
  checks: { scenario?: string; name: string; level: CheckLevel; ok: boolean; pass: CheckValue; fail: CheckValue; mandatory: boolean; basis: CheckBasis }[];
  max: number;
}
