import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { execLane } from "../../agent/lanes/exec.ts";
import { parseAllowHost, parsePassEnv } from "../../agent/lanes/exec-template.ts";
import type { Lane } from "../../agent/lanes/lane.ts";
import { UsageError } from "../errors.ts";

/** Options of the exec lane (`--agent exec`) on `wirebench run` and `run-all`. */
export interface ExecOptions {
  cmd?: string;
  allowHost?: string[];
  passEnv?: string[];
  agentDir?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds the exec lane's options to a command. */
export function execOptions(cmd: Command): Command {
  return cmd
    .option("--cmd <template>", "exec lane: the agent's command line, run by sh in the sandbox; {prompt_file}, {workspace} and {agent_dir} become quoted paths")
    .option("--allow-host <host[:port]>", "exec lane: a host the agent may reach (its provider's API; port 443 by default); repeatable", collect)
    .option("--pass-env <name>", "exec lane: hand this variable of the environment to the agent (its provider key); repeatable, kept out of the bundle", collect)
    .option("--agent-dir <dir>", "exec lane: a folder copied into the sandbox for the agent, at {agent_dir}");
}

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
