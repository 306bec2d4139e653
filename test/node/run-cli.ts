import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { projectRoot } from "../../scripts/farm/paths.ts";

export const CLI = join(projectRoot(), "scripts", "bin", "wirebench.mjs");

/** Runs the CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs the CLI to completion without blocking the event loop: CLI runs can go side by
 * side, and the test's own HTTP connections stay serviced (after a long spawnSync, a
 * pooled keep-alive socket the server has closed meanwhile can be handed to the next fetch).
 */
export function runCliAsync(args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Starts `wirebench serve` on a free port and resolves once it prints "ready".
 * `detached` gives it a process group of its own (its workerd included), which
 * `process.kill(-proc.pid, signal)` reaches as a whole.
 */
export function startServe(args: string[] = [], env: Record<string, string> = {}, detached = false): Promise<{ url: string; token: string; proc: ChildProcess; output: () => string }> {
  const storage = args.includes("--persist") ? [] : ["--memory"];
  const proc = spawn(process.execPath, [CLI, "serve", "--port", "0", ...storage, ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached });
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not get ready:\n${out}`)), 90_000);
    proc.stdout!.on("data", (d) => {
      out += d;
      if (/^ready$/m.test(out)) {
        clearTimeout(timer);
        const url = /listening on (\S+)/.exec(out)![1];
        const token = /admin token[^:]*: (\S+)/.exec(out)![1];
        resolve({ url, token, proc, output: () => out });
      }
    });
    proc.stderr!.on("data", (d) => (out += d));
    proc.on("exit", (code) => reject(new Error(`serve exited with ${code}:\n${out}`)));
  });
}
