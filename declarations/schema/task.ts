import { z } from "zod";
import { ROLE_NAME } from "./role-name.ts";
import type { Vendor } from "./vendor.ts";
import type { CheckRecorder } from "../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence } from "../../evidence/verdict.ts";
import { DocsProfileSchema } from "./docs-profile.ts";
import { CONDUCT_NAMES } from "../../evidence/conduct.ts";
import { OutputsSchema } from "./output-contract.ts";

/** What a scenario's drive may do (implemented by the Node harness). */
export interface DriveContext {
  /** World seed of this run. */
  seed: number;
  /** Reset a role to a checkpoint; opens a new log epoch that the scenario's evidence includes. */
  recreate(role: string, checkpoint: number, opts?: { faults?: string[] }): Promise<void>;
  /** Run the connector's entry command with arguments; outputs are read afterwards. */
  run(label: string, args?: string[], opts?: { timeoutMs?: number }): Promise<ConnectorRun>;
  /** Record every role's ground truth under a label. */
  snapshot(label: string): Promise<void>;
  /** Delete the connector's output files (not its own state). */
  clearOutputs(): Promise<void>;
  /** Keep a fact for the judge. */
  note(key: string, value: unknown): void;
  /**
   * Starts the connector's listener (`<entry> <args>` with SERVE_PORT), waits
   * until it accepts HTTP, and points every webhook role's deliveries at
   * `http://127.0.0.1:<port><path>` (default `/webhooks/<vendor>`).
   */
  listen(args: string[], opts?: { path?: string }): Promise<void>;
  /** Stops the listener; its run joins the evidence under label `serve`. */
  stopListener(): Promise<void>;
  /**
   * Waits (at most `timeoutMs`, default 30 s) until no webhook attempt is pending for any role
   * (the world's count is exact: queued, in flight, retries on their backoff;
   * test/node/pending-deliveries.test.ts) and no role has logged a request for 400 ms, so a
   * listener that acknowledges first and acts after has done so (scripts/harness/settle.ts).
   */
  settleWebhooks(opts?: { timeoutMs?: number }): Promise<void>;
}

/** What a judge may read besides the evidence. */
export interface JudgeContext {
  seed: number;
  /** Vendor declaration of each role. */
  vendors: Record<string, Vendor>;
}

export type Drive = (h: DriveContext) => Promise<void>;
export type Judge = (e: ScenarioEvidence, c: CheckRecorder, ctx: JudgeContext) => void;

const fn = <T>(what: string) => z.custom<T>((v) => typeof v === "function", { message: `${what} must be a function` });

/**
 * A scenario as the grader sees it: its name and judge. How it is driven lives
 * in the task's `drive.ts` (`defineDrives`), which only Node loads, so no drive
 * is bundled into the grader Worker; a `drive` here is refused.
 */
export const Scenario = z.strictObject({
  /** Name, unique in the task (`initial_sync`). */
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /** Pure function of the evidence: records checks. Runs in the grading Worker. */
  judge: fn<Judge>("judge"),
});

export const TaskSchema = z
  .object({
    id: z.string().regex(/^task-\d{4}$/),
    title: z.string().min(1),
    kind: z.enum(["build", "fix", "harden", "migrate", "build+harden"]),
    /** Role -> vendor and where it starts. */
    roles: z.record(z.string().regex(ROLE_NAME), z.object({ vendor: z.string(), checkpoint: z.number().int().min(0).default(0), scale: z.number().int().min(1).default(1) })),
    /** Default world seed. */
    seed: z.number().int().min(0).default(1),
    docsProfile: DocsProfileSchema,
    surfaces: z.array(z.enum(["polling", "webhooks", "writeback"])).min(1),
    /** The one mechanic this task is about; unique across tasks. */
    primaryMechanic: z.string().regex(/^[a-z][a-z0-9_]*$/),
    entry: z.object({ command: z.array(z.string()).min(1), subcommands: z.array(z.string()).default([]) }),
    /** Files the connector writes under OUTPUT_DIR: name -> format and row schema (`output-contract.ts`). */
    outputs: OutputsSchema,
    /** Longest a single connector run may take. */
    timeLimitS: z.number().int().positive().default(30),
    scenarios: z.array(Scenario).min(1),
    /**
     * Built-in conduct check name -> the ticket sentence (verbatim from PROBLEM.md) it enforces
     * in this task. Required for every hard gate the task's traffic records; a check not named
     * here rests on its vendor behaviour.
     */
    conduct: z.partialRecord(z.enum(CONDUCT_NAMES as [string, ...string[]]), z.string().min(1)).default({}),
  })
  .superRefine((t, ctx) => {
    const names = new Set<string>();
    t.scenarios.forEach((s, i) => {
      if (names.has(s.name)) ctx.addIssue({ code: "custom", path: ["scenarios", i, "name"], message: `duplicate scenario "${s.name}"` });
      names.add(s.name);
    });
  });

export type Task = z.infer<typeof TaskSchema>;
export type TaskInput = z.input<typeof TaskSchema>;

/** Declares a task; the module fails to load when the declaration is invalid. */
export function defineTask(input: TaskInput): Task {
  const r = TaskSchema.safeParse(input);
  if (!r.success) throw new Error(`task ${String(input?.id)} is invalid:\n${r.error.issues.map((i) => `  at ${i.path.join(".") || "(root)"}: ${i.message}`).join("\n")}`);
  return r.data;
}

/** Each scenario's drive, by scenario name. */
export type Drives = Readonly<Record<string, Drive>>;

/**
 * Declares how a task's scenarios are driven (in the task's `drive.ts`): one
 * drive per scenario, no more; the module fails to load otherwise.
 */
export function defineDrives(task: Task, drives: Record<string, Drive>): Drives {
  const names = task.scenarios.map((s) => s.name);
  const missing = names.filter((n) => typeof drives[n] !== "function");
  const extra = Object.keys(drives).filter((n) => !names.includes(n));
  if (missing.length || extra.length)
    throw new Error(`drives of ${task.id}: ${[missing.length && `no drive for ${missing.join(", ")}`, extra.length && `no scenario ${extra.join(", ")}`].filter(Boolean).join("; ")}`);
  return Object.freeze({ ...drives });
}
