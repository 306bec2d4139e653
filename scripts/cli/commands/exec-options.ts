/**
 * @module exec-options
 * The exec lane's options on `wirebench run` and `run-all` (declared only; `exec-lane-of.ts` reads them).
 */
import type { Command } from "commander";

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
