import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConnectorRun, OutputFile } from "../../declarations/evidence/verdict.ts";

const TAIL = 2000;

/** Environment a connector sees: the vendor's and nothing of the harness (no admin token). */
export function connectorEnv(vendorEnv: Record<string, string>, outputDir: string): Record<string, string> {
  const env: Record<string, string> = { OUTPUT_DIR: outputDir, ...vendorEnv };
  for (const key of ["PATH", "HOME", "TMPDIR", "LANG", "TZ"]) if (process.env[key]) env[key] = process.env[key]!;
  return env;
}

/** A declared output file as the harness finds it. */
export function readOutput(file: string): OutputFile {
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
  outputs: string[];
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
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
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
      const outputs: Record<string, OutputFile> = {};
      for (const name of opts.outputs) outputs[name] = readOutput(join(opts.outputDir, name));
      // A listener we stopped counts as a clean exit; one that died on its own keeps its code.
      return { label: opts.label, args: opts.args, exitCode: wasRunning ? 0 : (exitCode ?? null), timedOut: false, durationMs: Math.round(performance.now() - started), stderrTail: stderr, outputs };
    },
  };
}
