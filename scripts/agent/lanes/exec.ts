/**
 * @module exec
 * The exec lane: any command-line agent, run by the harness inside the same
 * sandbox and behind the same proxy as the built-in lanes. The command comes
 * from the operator's `--cmd` template (never from a path the agent can
 * write); the agent's own provider is reached through the hosts it declares
 * (`--allow-host`), and nothing else leaves the sandbox. Its stdout and stderr
 * are the transcript; when they are one of the known event formats (a
 * built-in lane's CLI, or the direct loop's records) that lane reads them
 * into a trajectory, otherwise the attempt has none.
 */
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SANDBOX } from "../sandbox/bwrap.ts";
import { NO_USAGE, type RawLine } from "../trajectory.ts";
import { claudeCodeLane } from "./claude-code.ts";
import { codexLane } from "./codex.ts";
import { directLane } from "./direct.ts";
import { renderTemplate } from "./exec-template.ts";
import type { Lane } from "./lane.ts";
import { opencodeLane } from "./opencode.ts";

/** What the operator told the exec lane. */
export interface ExecAgent {
  /** The `--cmd` template. */
  template: string;
  /** `host:port` pairs the agent may reach (parsed `--allow-host`). */
  allowHosts: string[];
  /** Variables handed to the agent (`--pass-env`), with their values (kept out of every retained file). */
  env: Record<string, string>;
  /** Host folder copied into the sandbox for the agent (`--agent-dir`), or null. */
  agentDir: string | null;
}

/** Where the exec lane puts things inside the sandbox (under the fresh home, outside the workspace). */
export const EXEC_PATHS = { promptFile: `${SANDBOX.home}/prompt.md`, agentDir: `${SANDBOX.home}/agent` } as const;

const OPENCODE_TYPES = new Set(["step_start", "step_finish", "text", "reasoning", "tool_use", "error"]);

/** The built-in lane whose event format the output is in, judged by its first JSON event; null for none. */
export function eventFormat(lines: readonly RawLine[]): Lane | null {
  for (const l of lines) {
    if (l.stream !== "stdout" || !l.text.startsWith("{")) continue;
    let ev: any;
    try {
      ev = JSON.parse(l.text);
    } catch {
      continue;
    }
    if (!ev || typeof ev !== "object" || typeof ev.type !== "string") continue;
    if (ev.type === "system" && ev.subtype === "init") return claudeCodeLane;
    if (ev.type === "thread.started") return codexLane;
    if (OPENCODE_TYPES.has(ev.type) && ev.part && typeof ev.part === "object") return opencodeLane;
    if (ev.type === "system" && ev.subtype === undefined && Array.isArray(ev.tools) && typeof ev.model === "string") return directLane;
    return null;
  }
  return null;
}

/** The exec lane for one `wirebench run`. */
export function execLane(agent: ExecAgent): Lane {
  const command = renderTemplate(agent.template, { prompt_file: EXEC_PATHS.promptFile, workspace: SANDBOX.workspace, agent_dir: EXEC_PATHS.agentDir });
  const digest = createHash("sha256").update(agent.template).digest("hex").slice(0, 12);
  return {
    id: "exec",
    // Never used: the exec lane has no scripted model (its agent brings its own).
    protocol: "openai-chat",
    keyEnv: "",
    egress: agent.allowHosts,
    mounts: () => [],
    version: () => ({ ok: true, version: `exec/${digest}` }),
    prepare(setup) {
      // Written before the home is handed to the sandbox account.
      writeFileSync(join(setup.hostHome, "prompt.md"), setup.prompt);
      if (agent.agentDir) {
        mkdirSync(join(setup.hostHome, "agent"));
        cpSync(agent.agentDir, join(setup.hostHome, "agent"), { recursive: true, verbatimSymlinks: true });
      }
      return { argv: ["/bin/sh", "-c", command], env: agent.env };
    },
    readable: (lines) => eventFormat(lines) !== null,
    normalize: (lines, setup) => eventFormat(lines)?.normalize(lines, setup) ?? [],
    usage: (lines) => eventFormat(lines)?.usage(lines) ?? { ...NO_USAGE },
    providerFailure: (lines) => eventFormat(lines)?.providerFailure(lines) ?? null,
  };
}
