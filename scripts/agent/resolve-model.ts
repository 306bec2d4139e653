/**
 * @module resolve-model
 * Turns `--model` into an endpoint: `scripted:<name>` (a script generated
 * from the task, or a script file) starts the scripted model server; any
 * other name is a real model reached with the lane's provider key.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import type { Task } from "../../declarations/schema/task.ts";
import { UsageError } from "../kit/usage-error.ts";
import type { ModelEndpoint } from "./attempt.ts";
import type { Lane } from "./lanes/lane.ts";
import { startScriptedModel } from "./model-server/server.ts";
import { Script } from "./script.ts";
import { SCRIPT_NAMES, taskScript } from "./task-scripts.ts";

/** Default endpoints of real providers, by the lane's key variable. */
const PROVIDER_BASE: Record<string, string> = { ANTHROPIC_API_KEY: "https://api.anthropic.com", OPENAI_API_KEY: "https://api.openai.com", OPENROUTER_API_KEY: "https://openrouter.ai/api" };

/** Checks `--model` without starting anything (bad input must fail before a world or workspace exists). */
export function checkModel(model: string, lane: Lane, tasks: Task[]): void {
  if (model.startsWith("scripted:")) {
    const name = model.slice("scripted:".length);
    if ((SCRIPT_NAMES as readonly string[]).includes(name)) return;
    if (!existsSync(name)) throw new UsageError(`--model scripted:${name}: not a generated script (${SCRIPT_NAMES.join(", ")}) and no such script file`);
    const parsed = Script.safeParse(JSON.parse(readFileSync(name, "utf8")));
    if (!parsed.success) throw new UsageError(`--model scripted:${name}: not a valid script (${parsed.error.issues[0]?.message})`);
    return;
  }
  if (!process.env[lane.keyEnv]) throw new UsageError(`the ${lane.id} lane needs ${lane.keyEnv} for model "${model}" (or use --model scripted:gold)`);
  void tasks;
}

/** The endpoint for one attempt (a scripted server is started per attempt). */
export async function resolveModel(model: string, lane: Lane, task: Task): Promise<ModelEndpoint> {
  if (model.startsWith("scripted:")) {
    const name = model.slice("scripted:".length);
    const apiKey = `sk-wirebench-scripted-${randomBytes(12).toString("hex")}`;
    const script = taskScript(task, name, lane.keyEnv) ?? Script.parse(JSON.parse(readFileSync(name, "utf8")));
    const server = await startScriptedModel(script);
    return { model: script.model, baseUrl: server.url, apiKey, scripted: server };
  }
  const baseUrl = process.env.WIREBENCH_MODEL_BASE_URL || PROVIDER_BASE[lane.keyEnv] || "https://api.openai.com";
  return { model, baseUrl, apiKey: process.env[lane.keyEnv]!, scripted: null };
}
