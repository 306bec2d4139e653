/**
 * @module agent-workspace
 * What an attempt hands its agent, in one place: the workspace folder
 * (workspace.ts), the environment (the development world's URLs and
 * credentials, `OUTPUT_DIR`, `SERVE_PORT`) and the prompt. `wirebench run`
 * and `wirebench workspace` both call {@link prepareAgentWorkspace}, so an
 * outside harness gets byte for byte what a built-in lane gets.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Task } from "../../declarations/schema/task.ts";
import { vendorEnv } from "../harness/grade-repo.ts";
import { taskDir } from "../harness/workspace.ts";
import { agentPrompt } from "./prompt.ts";
import { buildWorkspace, type DevWorld } from "./workspace.ts";

/** What the agent is told besides its files. */
export interface AgentBriefing {
  /** The environment: vendor URLs and credentials, `OUTPUT_DIR`, `SERVE_PORT`. */
  env: Record<string, string>;
  /** The one prompt every lane gets. */
  prompt: string;
  /** The ticket (PROBLEM.md) as the task declares it. */
  problem: string;
}

export interface AgentWorkspaceOptions {
  /** Host folder to write the workspace into (exists and is empty). */
  dir: string;
  task: Task;
  /** The development world as the agent sees it (URLs rewritten for the sandbox when the farm is remote). */
  world: DevWorld;
  seed: number;
  /** Path at which the agent sees `dir` (`/workspace` in the sandbox). */
  workspacePath: string;
  /** Port the agent's webhook listener must listen on. */
  servePort: number;
}

/** The webhook targets a development world registers: one per role, at a listener on `origin` (`http://127.0.0.1:PORT`). */
export function webhookTargets(task: Task, origin: string): Record<string, string> {
  return Object.fromEntries(Object.entries(task.roles).map(([role, r]) => [role, `${origin}/webhooks/${r.vendor}`]));
}

/** Writes the workspace into `o.dir` and returns the environment and prompt that go with it. */
export function prepareAgentWorkspace(o: AgentWorkspaceOptions): AgentBriefing {
  buildWorkspace(o.dir, o.task, o.world, o.seed);
  const source = taskDir(o.task.id);
  const problem = readFileSync(join(source, "PROBLEM.md"), "utf8");
  const prompt = agentPrompt({ task: o.task.id, problem, hasMaterials: existsSync(join(source, "materials")), roles: Object.keys(o.task.roles), workspace: o.workspacePath });
  const env = { ...vendorEnv(o.world), OUTPUT_DIR: `${o.workspacePath}/output`, SERVE_PORT: String(o.servePort) };
  return { env, prompt, problem };
}
