/**
 * @module seal-body
 * What a harness may send when it seals a run (`POST /v1/runs`): the world,
 * per scenario the epochs it used, the connector's runs and the drive's notes.
 * Never ground truth (the farm took the snapshots), never the task or seed
 * in place of the world's (they may be repeated, and must agree), and an
 * error class only from the operator.
 */
import { z } from "zod";
import { ROLE_NAME } from "../../declarations/schema/role-name.ts";

const OutputFile = z.union([
  z.strictObject({ present: z.literal(false) }),
  z.strictObject({ present: z.literal(true), parsed: z.literal(true), value: z.unknown() }),
  z.strictObject({ present: z.literal(true), parsed: z.literal(false), error: z.string() }),
]);

/** One execution of the connector, as the harness saw it. */
const ConnectorRun = z.strictObject({
  label: z.string().max(200),
  args: z.array(z.string()).max(256),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().min(0),
  stderrTail: z.string(),
  outputs: z.record(z.string(), OutputFile),
});

const Epoch = z.number().int().min(1, "epoch 0 is the world's seeding, which no scenario grades").max(Number.MAX_SAFE_INTEGER);

const Scenario = z.strictObject({
  name: z.string().max(200),
  /** Role -> the epochs (opened by recreates) the scenario used, in order. */
  epochs: z.record(z.string().regex(ROLE_NAME, "roles are lower-case words"), z.array(Epoch).max(256)),
  runs: z.array(ConnectorRun).max(256),
  /** Refused: ground truth is what the farm snapshotted (`POST /v1/worlds/:world/roles/:role/snapshots`). */
  snapshots: z.never({ error: "snapshots are taken by the farm (POST /v1/worlds/:world/roles/:role/snapshots {label}); a seal carries none" }).optional(),
  notes: z.record(z.string(), z.unknown()).default({}),
});

export const SealBody = z.strictObject({
  world: z.string().max(200),
  /** The world's task, if given: it must agree with the archive. */
  task: z.string().max(64).optional(),
  /** The world's seed, if given: it must agree with the archive. */
  seed: z.number().int().min(0).optional(),
  /** An error class: the operator's alone. */
  error: z
    .strictObject({ class: z.enum(["candidate_setup_failure", "benchmark_infrastructure_failure", "benchmark_verifier_failure"]), message: z.string().max(10_000) })
    .nullable()
    .default(null),
  scenarios: z.array(Scenario).max(64),
});

export type SealBody = z.infer<typeof SealBody>;
