import { spawn } from "node:child_process";
import type { ConnectorRun, OutputFile } from "../../evidence/verdict.ts";
import type { Outputs } from "../../declarations/schema/output-contract.ts";
import { readOutput } from "./output-file.ts";

const TAIL = 2000;

/** Environment a connector sees: the vendor's and nothing of the harness (no admin token). */
export function connectorEnv(vendorEnv: Record<string, string>, outputDir: string): Record<string, string> {
  const env: Record<string, string> = { OUTPUT_DIR: outputDir, ...vendorEnv };
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) if (process.env[key]) env[key] = process.env[key]!;
  return env;
}

/** Ends every process left in a connector's process group (a daemon it started, a child it forgot). */
function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

/** The declared outputs as the run left them, each read by its contract. */
export function readOutputs(declared: Outputs, outputDir: string): Record<string, OutputFile> {
  const outputs: Record<string, OutputFile> = {};
  for (const [name, contract] of Object.entries(declared)) outputs[name] = readOutput(outputDir, name, contract);
  return outputs;
}

/**
 * Runs the connector once in its workspace, on the pinned Node, with a time
 * limit; when it exits or the limit runs out, its whole process group is
 * killed. These are plain host processes: for trusted code only (the probes
 * of `validate`, `grade --trusted`); untrusted connectors run in the sandbox.
 */
export async function runConnector(opts: {
  label: string;
  cwd: string;
  command: string[];
  args: string[];
  env: Record<string, string>;
  timeoutMs: number;
  outputs: Outputs;
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
    killGroup(child.pid);
  }, opts.timeoutMs);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on("error", (err) => {
      stderr += `\nfailed to start: ${err.message}`;
      resolve(null);
    });
    child.on("exit", (code) => resolve(timedOut ? null : code));
  });
  clearTimeout(timer);
  killGroup(child.pid);
  return {
    label: opts.label,
    args: opts.args,
    exitCode,
    timedOut,
    durationMs: Math.round(performance.now() - started),
    stderrTail: stderr,
    outputs: readOutputs(opts.outputs, opts.outputDir),
  };
}

/** A free TCP port on the loopback interface. */
export async function freePort(): Promise<number> {
  const { createServer } = await import("node:net");
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A connector listener running in the background. */
export interface Listener {
  port: number;
  /** Stops it (SIGTERM, then SIGKILL) and reports the run. */
  stop(): Promise<ConnectorRun>;
}

/**
 * Starts the connector's listener with `SERVE_PORT` and waits until the port
 * accepts HTTP (any status), or fails after `readyMs`.
 */
export async function startListener(opts: {
  label: string;
  cwd: string;
  command: string[];
  args: string[];
  env: Record<string, string>;
  readyMs: number;
  outputs: Outputs;
  outputDir: string;
}): Promise<Listener> {
  const port = await freePort();
  const [cmd, ...rest] = opts.command;
  const started = performance.now();
  const child = spawn(cmd === "node" ? process.execPath : cmd, [...rest, ...opts.args], {
    cwd: opts.cwd,
    env: { ...opts.env, SERVE_PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-TAIL);
  });
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) => child.on("exit", (code) => ((exitCode = code), resolve())));
  const kill = (signal: NodeJS.Signals) => killGroup(child.pid, signal);
  const deadline = Date.now() + opts.readyMs;
  for (;;) {
    if (exitCode !== undefined) break;
    try {
      await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) });
      break;
    } catch {
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    stop: async () => {
      const wasRunning = exitCode === undefined;
      if (wasRunning) {
        kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
        if (exitCode === undefined) kill("SIGKILL");
        await exited;
      }
      kill("SIGKILL");
      const outputs = readOutputs(opts.outputs, opts.outputDir);
      // A listener we stopped counts as a clean exit; one that died on its own keeps its code.
      return { label: opts.label, args: opts.args, exitCode: wasRunning ? 0 : (exitCode ?? null), timedOut: false, durationMs: Math.round(performance.now() - started), stderrTail: stderr, outputs };
    },
  };
}
