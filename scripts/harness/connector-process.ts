import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConnectorRun, OutputFile } from "../../workers/grading/types.ts";

const TAIL = 2000;

/** Environment a connector sees: the vendor's and nothing of the harness (no admin token). */
export function connectorEnv(vendorEnv: Record<string, string>, outputDir: string): Record<string, string> {
  const env: Record<string, string> = { OUTPUT_DIR: outputDir, ...vendorEnv };
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) if (process.env[key]) env[key] = process.env[key]!;
  return env;
}

function readOutput(file: string): OutputFile {
  if (!existsSync(file)) return { present: false };
  try {
    return { present: true, parsed: true, value: JSON.parse(readFileSync(file, "utf8")) };
  } catch (err) {
    return { present: true, parsed: false, error: (err as Error).message.slice(0, 200) };
  }
}

/**
 * Runs the connector once in its workspace, on the pinned Node, with a time
 * limit; a connector that outlives it is killed with its whole process group.
 */
export async function runConnector(opts: {
  label: string;
  cwd: string;
  command: string[];
  args: string[];
  env: Record<string, string>;
  timeoutMs: number;
  outputs: string[];
  outputDir: string;
}): Promise<ConnectorRun> {
  const [cmd, ...rest] = opts.command;
  const exe = cmd === "node" ? process.execPath : cmd;
  const started = performance.now();
  const child = spawn(exe, [...rest, ...opts.args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "ignore", "pipe"], detached: true });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-TAIL);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }, opts.timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on("error", (err) => {
      stderr += `\nfailed to start: ${err.message}`;
      resolve(null);
    });
    child.on("exit", (code) => resolve(timedOut ? null : code));
  });
  clearTimeout(timer);
  const outputs: Record<string, OutputFile> = {};
  for (const name of opts.outputs) outputs[name] = readOutput(join(opts.outputDir, name));
  return { label: opts.label, args: opts.args, exitCode, timedOut, durationMs: Math.round(performance.now() - started), stderrTail: stderr, outputs };
}
