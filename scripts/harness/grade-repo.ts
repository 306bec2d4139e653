import { existsSync, lstatSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DriveContext, Task } from "../../declarations/schema/task.ts";
import type { ConnectorRun, Verdict } from "../../evidence/verdict.ts";
import { PARTICIPANT_KEY_PREFIX } from "../../workers/middleware/principal/principal.ts";
import type { FarmHandle } from "../farm/control-client.ts";
import { controlCall } from "../farm/control-client.ts";
import { connectorEnv, type Listener } from "./connector-process.ts";
import { HOST_CONNECTORS, type ConnectorHost } from "./connector-host.ts";
import { relayOnce, relayWanted } from "./relay.ts";
import { settle } from "./settle.ts";
import { entryScript, removeDir, taskDir } from "./workspace.ts";
import { driveOf } from "../../declarations/tasks/drives.ts";

export interface WorldInfo {
  world: string;
  vendors: Record<string, { vendor: string; baseUrl: string; docsUrl: string; env: Record<string, string> }>;
}

/** What a scenario's drive produced in Node (the snapshots it asked for stay with the farm). */
interface DriveEvidence {
  name: string;
  epochs: Record<string, number[]>;
  runs: ConnectorRun[];
  notes: Record<string, unknown>;
}

/** The farm's answer to a snapshot request. */
interface SnapshotReceipt {
  label: string;
  epoch: number;
  checkpoint: number;
  records: number;
}

/** Environment of the connector: per role `<ROLE>_BASE_URL`, `<ROLE>_DOCS_URL`, the vendor's own names, and `VENDOR_*` for the first role. */
export function vendorEnv(world: WorldInfo): Record<string, string> {
  const env: Record<string, string> = {};
  Object.entries(world.vendors).forEach(([role, v], i) => {
    const prefix = role.toUpperCase().replace(/-/g, "_");
    Object.assign(env, v.env, { [`${prefix}_BASE_URL`]: v.baseUrl, [`${prefix}_DOCS_URL`]: v.docsUrl });
    if (i === 0) Object.assign(env, { VENDOR_BASE_URL: v.baseUrl, VENDOR_DOCS_URL: v.docsUrl });
  });
  return env;
}

class Drive implements DriveContext {
  readonly evidence: DriveEvidence;
  readonly seed: number;
  private readonly farm: FarmHandle;
  private readonly task: Task;
  private readonly world: WorldInfo;
  private readonly workspace: string;

  private readonly host: ConnectorHost;

  constructor(farm: FarmHandle, task: Task, world: WorldInfo, seed: number, workspace: string, name: string, host: ConnectorHost) {
    this.host = host;
    this.farm = farm;
    this.task = task;
    this.world = world;
    this.seed = seed;
    this.workspace = workspace;
    this.evidence = { name, epochs: {}, runs: [], notes: {} };
  }

  get outputDir(): string {
    return join(this.workspace, "output");
  }

  /**
   * The output folder as a real folder. The connector may have put a link (or
   * a file) in its place: that entry is removed, never followed, so nothing
   * the harness later deletes or reads there lies outside the workspace.
   */
  private outputFolder(): string {
    const st = lstatSync(this.outputDir, { throwIfNoEntry: false });
    if (st && !st.isDirectory()) rmSync(this.outputDir, { force: true });
    mkdirSync(this.outputDir, { recursive: true });
    return this.outputDir;
  }

  async recreate(role: string, checkpoint: number, opts: { faults?: string[] } = {}): Promise<void> {
    if (!this.world.vendors[role]) throw new Error(`task ${this.task.id} has no role "${role}"`);
    const r = await controlCall<{ epoch: number }>(this.farm, "POST", `/v1/worlds/${this.world.world}/roles/${role}/recreate`, { checkpoint, faults: opts.faults ?? [] });
    (this.evidence.epochs[role] ??= []).push(r.epoch);
  }

  async run(label: string, args: string[] = [], opts: { timeoutMs?: number } = {}): Promise<ConnectorRun> {
    this.outputFolder();
    const run = await this.host.run({
      label,
      cwd: this.workspace,
      command: this.task.entry.command,
      args,
      env: connectorEnv(vendorEnv(this.world), this.outputDir),
      timeoutMs: opts.timeoutMs ?? this.task.timeLimitS * 1000,
      outputs: this.task.outputs,
      outputDir: this.outputDir,
    });
    this.evidence.runs.push(run);
    return run;
  }

  /** Asks the farm to take every role's ground truth under `label` now; the farm keeps it for the seal and answers a receipt. */
  async snapshot(label: string): Promise<void> {
    for (const role of Object.keys(this.world.vendors)) await controlCall<SnapshotReceipt>(this.farm, "POST", `/v1/worlds/${this.world.world}/roles/${role}/snapshots`, { label });
  }

  async clearOutputs(): Promise<void> {
    const dir = this.outputFolder();
    for (const f of Object.keys(this.task.outputs)) rmSync(join(dir, f), { force: true });
  }

  note(key: string, value: unknown): void {
    this.evidence.notes[key] = value;
  }

  private listener: Listener | null = null;
  /** A farm that cannot reach this machine delivers through the relay outbox, which settleWebhooks drains. */
  private get relay(): boolean {
    return relayWanted(this.farm);
  }

  async listen(args: string[], opts: { path?: string } = {}): Promise<void> {
    if (this.listener) throw new Error("a listener is already running");
    this.outputFolder();
    this.listener = await this.host.startListener({
      label: "serve",
      cwd: this.workspace,
      command: this.task.entry.command,
      args,
      env: connectorEnv(vendorEnv(this.world), this.outputDir),
      readyMs: 10_000,
      outputs: this.task.outputs,
      outputDir: this.outputDir,
    });
    for (const [role, v] of Object.entries(this.world.vendors)) {
      const path = opts.path ?? `/webhooks/${v.vendor}`;
      await controlCall(this.farm, "POST", `/v1/worlds/${this.world.world}/roles/${role}/webhook-target`, { url: `http://127.0.0.1:${this.listener.port}${path}`, relay: this.relay });
    }
  }

  async stopListener(): Promise<void> {
    if (!this.listener) return;
    this.evidence.runs.push(await this.listener.stop());
    this.listener = null;
  }

  async settleWebhooks(opts: { timeoutMs?: number } = {}): Promise<void> {
    await settle(async () => {
      if (this.relay) for (const role of Object.keys(this.world.vendors)) await relayOnce(this.farm, this.world.world, role);
      const status = await controlCall<{ roles: Record<string, { pendingDeliveries: number; epoch: number; requests: number }> }>(this.farm, "GET", `/v1/worlds/${this.world.world}`);
      const roles = Object.entries(status.roles).sort(([a], [b]) => (a < b ? -1 : 1));
      return { pending: roles.reduce((n, [, r]) => n + r.pendingDeliveries, 0), requests: roles.map(([role, r]) => `${role}:${r.epoch}:${r.requests}`).join(" ") };
    }, opts);
  }
}

/**
 * Grades a connector folder: a fresh world for the task, each scenario's
 * drive in its own copy of the folder (every role recreated at the task's
 * checkpoint first), then the run is sealed into D1 and graded by the Worker.
 */
export async function gradeRepo(opts: {
  farm: FarmHandle;
  task: Task;
  repoDir: string;
  seed?: number;
  reference?: "gold" | "self";
  timeLimitS?: number;
  /** Filled with the grading world, the sealed run and the epochs each role used. */
  report?: { world?: string; run?: string; epochs?: Record<string, number[]> };
  /** Where connector processes run (default: plain child processes of the harness). */
  connectors?: (world: { world: string; roles: string[] }) => Promise<ConnectorHost>;
}): Promise<Verdict> {
  const { farm } = opts;
  const task = opts.timeLimitS ? { ...opts.task, timeLimitS: opts.timeLimitS } : opts.task;
  const seed = opts.seed ?? task.seed;
  const world = await controlCall<WorldInfo>(farm, "POST", "/v1/worlds", { task: task.id, seed });
  const scenarios: DriveEvidence[] = [];
  let error: Verdict["error"] = null;
  const host = opts.connectors ? await opts.connectors({ world: world.world, roles: Object.keys(world.vendors) }) : HOST_CONNECTORS;
  if (!existsSync(join(opts.repoDir, entryScript(task)))) {
    error = { class: "candidate_setup_failure", message: `the connector has no ${entryScript(task)}` };
  } else {
    for (const scenario of task.scenarios) {
      const workspace = host.workspace(opts.repoDir, join(taskDir(task.id), "repo"));
      const drive = new Drive(farm, task, world, seed, workspace, scenario.name, host);
      try {
        for (const [role, r] of Object.entries(task.roles)) await drive.recreate(role, r.checkpoint);
        await driveOf(task.id, scenario.name)(drive);
      } catch (err) {
        error ??= { class: "benchmark_verifier_failure", message: `drive of ${scenario.name} failed: ${(err as Error).message}` };
      } finally {
        await drive.stopListener();
        removeDir(workspace);
      }
      scenarios.push(drive.evidence);
    }
  }
  await host.close();
  // Error classes are the operator's: a participant's seal carries none (its verdict is self-reported anyway).
  const operator = !farm.adminToken.startsWith(PARTICIPANT_KEY_PREFIX);
  const sealed = await controlCall<{ run: string }>(farm, "POST", "/v1/runs", { world: world.world, task: task.id, seed, ...(operator ? { error } : {}), scenarios });
  if (opts.report) {
    opts.report.world = world.world;
    opts.report.run = sealed.run;
    const epochs: Record<string, number[]> = {};
    for (const s of scenarios) for (const [role, list] of Object.entries(s.epochs)) epochs[role] = [...new Set([...(epochs[role] ?? []), ...list])];
    opts.report.epochs = epochs;
  }
  return controlCall<Verdict>(farm, "POST", `/v1/runs/${sealed.run}/grade${opts.reference === "self" ? "?reference=self" : ""}`);
}
