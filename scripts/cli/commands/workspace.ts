import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { Task } from "../../../declarations/schema/task.ts";
import { findTask, TASKS } from "../../../declarations/tasks/index.ts";
import { envFile } from "../../agent/env-file.ts";
import type { DevWorld } from "../../agent/workspace.ts";
import { relayWanted } from "../../harness/relay.ts";
import { UsageError } from "../errors.ts";
import { controlCall } from "../../farm/control-client.ts";
import { openFarm } from "../../farm/open-farm.ts";

/** Options of `wirebench workspace`. */
export interface WorkspaceOptions {
  task: string;
  seed?: string;
  farm?: string;
  out: string;
  json?: boolean;
  /** Path the agent will see the workspace at (default: the workspace folder's own absolute path). */
  workspacePath?: string;
  servePort: string;
}

/** What `wirebench workspace` prints (and keeps as workspace.json): enough to reproduce the attempt's start. */
export interface WorkspaceDescription {
  task: string;
  seed: number;
  farm: string;
  /** The development world; `POST /v1/worlds {"reproduce": world}` seeds its starting state again. */
  world: string;
  reproduce: { method: "POST"; path: "/v1/worlds"; body: { reproduce: string } };
  /** The agent's folder: what `wirebench run` gives a lane's agent (byte for byte but for the world's id). */
  workspace: string;
  /** The path the prompt and OUTPUT_DIR name (`/workspace` is what the sandbox of `run` uses). */
  workspace_path: string;
  environment: string;
  prompt: string;
  serve_port: number;
  /** Where the world delivers each role's webhooks. */
  webhook_targets: Record<string, string>;
  /** Whether deliveries wait in the world's outbox for a relay instead (a hosted farm cannot reach this machine). */
  webhooks_relayed: boolean;
  vendors: Record<string, { vendor: string; base_url: string; docs_url: string }>;
}

/** Variable holding a role's webhook target in environment.env. */
export function webhookVar(role: string): string {
  return `${role.toUpperCase().replace(/-/g, "_")}_WEBHOOK_TARGET`;
}

function checkOut(out: string): void {
  if (!statSync(dirname(out), { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--out ${out}: the folder ${dirname(out)} does not exist`);
  const st = statSync(out, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isDirectory()) throw new UsageError(`--out ${out} exists and is not a folder`);
  if (readdirSync(out).length) throw new UsageError(`--out ${out} exists and is not empty`);
}

/** Everything about the request that can be wrong, checked before any world exists. */
function check(opts: WorkspaceOptions): { task: Task; seed: number; servePort: number; out: string; workspacePath: string } {
  const entry = findTask(opts.task);
  if (!entry) throw new UsageError(`unknown task "${opts.task}" (known: ${Object.keys(TASKS).join(", ")})`);
  if (opts.seed !== undefined && !/^\d+$/.test(opts.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${opts.seed}"`);
  if (!/^[1-9]\d{0,4}$/.test(opts.servePort) || Number(opts.servePort) > 65535) throw new UsageError(`--serve-port must be a TCP port (1-65535), got "${opts.servePort}"`);
  const out = resolve(opts.out);
  checkOut(out);
  const workspacePath = opts.workspacePath ?? join(out, "workspace");
  if (!isAbsolute(workspacePath)) throw new UsageError(`--workspace-path must be an absolute path, got "${workspacePath}"`);
  return { task: entry.task, seed: opts.seed === undefined ? entry.task.seed : Number(opts.seed), servePort: Number(opts.servePort), out, workspacePath };
}

/**
 * `wirebench workspace`: what an attempt's agent gets, for a harness of one's
 * own. A fresh development world on the farm, then, under `--out`:
 * `workspace/` (the ticket, the starter repository at its baseline tag, the
 * materials and the docs of that world), `environment.env`, `prompt.md` and
 * `workspace.json`. It is built beside `--out` and moved into place whole, so
 * a failure leaves nothing half-written.
 */
export async function workspaceCommand(opts: WorkspaceOptions): Promise<void> {
  const c = check(opts);
  let staging: string;
  try {
    staging = mkdtempSync(join(dirname(c.out), `.${basename(c.out)}.partial-`));
  } catch (err) {
    throw new UsageError(`--out ${c.out}: cannot write beside it: ${(err as Error).message}`);
  }
  let description: WorkspaceDescription;
  try {
    const farm = await openFarm(opts.farm, "require");
    try {
      // Fails early on a farm that is down or refuses the key.
      await controlCall(farm, "GET", "/v1/tasks");
      // Loaded only once the request checked out: a refused one answers without the docs writer.
      const { prepareAgentWorkspace, webhookTargets } = await import("../../agent/agent-workspace.ts");
      const targets = webhookTargets(c.task, `http://127.0.0.1:${c.servePort}`);
      const relayed = relayWanted(farm);
      const dev = await controlCall<DevWorld>(farm, "POST", "/v1/worlds", { task: c.task.id, seed: c.seed, webhookTargets: targets, relay: relayed });
      const workspace = join(staging, "workspace");
      mkdirSync(workspace);
      const briefing = prepareAgentWorkspace({ dir: workspace, task: c.task, world: dev, seed: c.seed, workspacePath: c.workspacePath, servePort: c.servePort });
      const env = { ...briefing.env, ...Object.fromEntries(Object.entries(targets).map(([role, url]) => [webhookVar(role), url])) };
      description = {
        task: c.task.id,
        seed: c.seed,
        farm: farm.url,
        world: dev.world,
        reproduce: { method: "POST", path: "/v1/worlds", body: { reproduce: dev.world } },
        workspace: join(c.out, "workspace"),
        workspace_path: c.workspacePath,
        environment: join(c.out, "environment.env"),
        prompt: join(c.out, "prompt.md"),
        serve_port: c.servePort,
        webhook_targets: targets,
        webhooks_relayed: relayed,
        vendors: Object.fromEntries(Object.entries(dev.vendors).map(([role, v]) => [role, { vendor: v.vendor, base_url: v.baseUrl, docs_url: v.docsUrl }])),
      };
      // The credentials are the world's: readable by this account only.
      writeFileSync(join(staging, "environment.env"), envFile(env), { mode: 0o600 });
      writeFileSync(join(staging, "prompt.md"), briefing.prompt);
      writeFileSync(join(staging, "workspace.json"), `${JSON.stringify(description, null, 2)}\n`);
      checkOut(c.out);
      if (existsSync(c.out)) rmdirSync(c.out);
      renameSync(staging, c.out);
    } finally {
      await farm.close();
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  if (opts.json) {
    console.log(JSON.stringify(description, null, 2));
    return;
  }
  console.log(`workspace of ${description.task} (seed ${description.seed}) in ${description.workspace}`);
  console.log(`world ${description.world} on ${description.farm}`);
  console.log(`environment: ${description.environment}  (set -a; . ${description.environment}; set +a)`);
  console.log(`prompt: ${description.prompt}`);
  if (description.webhooks_relayed) console.log("webhooks: the farm cannot reach this machine; deliveries wait in the world's outbox (see docs/agents.md)");
  else console.log(`webhooks: delivered to a listener on port ${description.serve_port}`);
}
