/**
 * @module exec-lane-of
 * The exec lane (`--agent exec`) its options describe, checked; kept apart from the option
 * definitions so the command line declares its verbs without loading the lane.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { execLane } from "../../agent/lanes/exec.ts";
import { parseAllowHost, parsePassEnv } from "../../agent/lanes/exec-template.ts";
import type { Lane } from "../../agent/lanes/lane.ts";
import { UsageError } from "../errors.ts";
import type { ExecOptions } from "./exec-options.ts";

/** The exec lane the options describe, checked (bad input fails before any world or workspace exists). */
export function execLaneOf(opts: ExecOptions, env: NodeJS.ProcessEnv = process.env): { lane: Lane; secrets: string[]; label: string } {
  if (opts.cmd === undefined) throw new UsageError("--agent exec needs --cmd '<command with {prompt_file} and {workspace}>'");
  const allowHosts = [...new Set((opts.allowHost ?? []).map(parseAllowHost))];
  const passed = parsePassEnv(opts.passEnv ?? [], env);
  let agentDir: string | null = null;
  if (opts.agentDir !== undefined) {
    agentDir = resolve(opts.agentDir);
    if (!statSync(agentDir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--agent-dir ${opts.agentDir}: not a folder`);
  }
  const lane = execLane({ template: opts.cmd, allowHosts, env: passed, agentDir });
  const version = lane.version();
  // Without --model, the attempts are labelled by the command (`exec-` and its digest).
  const label = `exec-${version.ok ? version.version.slice("exec/".length) : "unknown"}`;
  return { lane, secrets: Object.values(passed), label };
}

/** Refuses exec-lane options on another lane (they would be silently ignored). */
export function refuseExecOptions(opts: ExecOptions, lane: string): void {
  const given = (["cmd", "allowHost", "passEnv", "agentDir"] as const).filter((k) => opts[k] !== undefined);
  if (given.length) throw new UsageError(`--${given[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is an option of --agent exec, not of the ${lane} lane`);
}
