/**
 * @module run-sandboxed
 * Starts a command in the sandbox and waits for it: lines of stdout and
 * stderr are timestamped as they arrive, and the wall clock is enforced with
 * SIGTERM to the whole process group, then SIGKILL after a grace period (a
 * process that ignores SIGTERM still ends: bubblewrap's death takes the
 * sandbox's PID namespace with it). Each command runs in a cell of its own
 * (cell-limits.ts): memory, process count, file size and /tmp are bounded,
 * and whatever is left in the cell when the command ends is killed.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { RawLine } from "../trajectory.ts";
import { sandboxAccount } from "./agent-user.ts";
import { argsPayload, bwrapPath, SANDBOX_ENTRY, sandboxArgv, type SandboxSpec } from "./bwrap.ts";
import { openCell, type CellLimits, type CellReport } from "./cell-limits.ts";

export interface SandboxedRun {
  exitCode: number | null;
  /** Whether the wall clock ran out (SIGTERM was sent). */
  timedOut: boolean;
  /** Whether SIGKILL was needed after the grace period. */
  killed: boolean;
  lines: RawLine[];
  durationS: number;
  /** What the cell's limits did (processes killed for memory, forks refused). */
  limits: CellReport;
}

export interface RunOptions {
  timeLimitS: number;
  /** Seconds between SIGTERM and SIGKILL. */
  graceS?: number;
  /**
   * Wall-clock instant (ms since the epoch) that line times count from;
   * default: the moment the command starts. A caller that matches lines to
   * other clocks' records (the proxy's) passes its own origin, so the time
   * spent preparing the sandbox does not shift the lines against them.
   */
  originMs?: number;
  /** Text written to the command's stdin (closed right after). */
  stdin?: string;
  /** Called with each line as it arrives. */
  onLine?: (line: RawLine) => void;
  /** Cap on lines kept per stream (the rest are counted, not kept). */
  maxLines?: number;
  /** Stops the command early (SIGTERM, then SIGKILL after the grace period) when it resolves. */
  until?: Promise<void>;
  /** The cell's limits (the /tmp size among them). */
  limits: CellLimits;
}

/** The text one stream printed, lines joined. */
export function streamText(lines: readonly RawLine[], stream: RawLine["stream"]): string {
  return lines
    .filter((l) => l.stream === stream)
    .map((l) => l.text)
    .join("\n");
}

/** The first child of a process (bubblewrap's init inside the PID namespace runs the bridge). */
function firstChild(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/** fd on which bubblewrap reads its arguments. */
const ARGS_FD = 4;

export async function runSandboxed(spec: SandboxSpec, opts: RunOptions): Promise<SandboxedRun> {
  const account = sandboxAccount();
  const payload = argsPayload(sandboxArgv(spec, opts.limits.tmpBytes));
  const cell = openCell(opts.limits);
  const started = performance.now();
  const origin = opts.originMs === undefined ? started : started - (Date.now() - opts.originMs);
  // bubblewrap reads its arguments before it does anything else: it waits in the cell until they come.
  const [command, ...argv] = [...cell.rlimitPrefix, bwrapPath(), "--args", String(ARGS_FD), ...SANDBOX_ENTRY];
  const child = spawn(command!, argv, {
    stdio: ["pipe", "pipe", "pipe", "pipe", "pipe"],
    detached: true,
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
    env: {},
  });
  const argsStream = child.stdio[ARGS_FD] as import("node:stream").Writable;
  argsStream.on("error", () => {});
  if (child.pid !== undefined) {
    try {
      cell.enter(child.pid);
    } catch (err) {
      child.kill("SIGKILL");
      cell.close();
      throw new Error(`could not put the sandbox in its cell: ${(err as Error).message}`);
    }
  }
  argsStream.end(payload);
  let innerPid: number | null = null;
  let info = "";
  const infoStream = child.stdio[3] as import("node:stream").Readable;
  infoStream.on("data", (d: Buffer) => {
    info += d.toString();
    const m = /"child-pid":\s*(\d+)/.exec(info);
    if (m) innerPid = Number(m[1]);
  });
  infoStream.on("error", () => {});
  const lines: RawLine[] = [];
  const max = opts.maxLines ?? 200_000;
  const collect = (stream: "stdout" | "stderr") => (text: string) => {
    const line: RawLine = { t: Math.round(performance.now() - origin) / 1000, stream, text };
    if (lines.length < max) lines.push(line);
    opts.onLine?.(line);
  };
  createInterface({ input: child.stdout! }).on("line", collect("stdout"));
  createInterface({ input: child.stderr! }).on("line", collect("stderr"));
  child.stdin!.on("error", () => {});
  child.stdin!.end(opts.stdin ?? "");
  let timedOut = false;
  let killed = false;
  const signal = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      /* gone */
    }
  };
  const terminate = () => {
    // The bridge passes SIGTERM on to the command; bubblewrap itself must live through the grace period.
    const bridge = innerPid === null ? null : firstChild(innerPid);
    if (bridge === null) signal("SIGTERM");
    else {
      try {
        process.kill(bridge, "SIGTERM");
      } catch {
        signal("SIGTERM");
      }
    }
  };
  let kill: ReturnType<typeof setTimeout> | undefined;
  const stopIn = (graceS: number) => {
    terminate();
    kill ??= setTimeout(() => {
      killed = true;
      signal("SIGKILL");
    }, graceS * 1000);
  };
  const term = setTimeout(() => {
    timedOut = true;
    stopIn(opts.graceS ?? 10);
  }, opts.timeLimitS * 1000);
  void opts.until?.then(() => stopIn(opts.graceS ?? 10));
  const exitCode = await new Promise<number | null>((resolve) => {
    child.on("error", () => resolve(null));
    child.on("close", (code) => resolve(code));
  });
  clearTimeout(term);
  clearTimeout(kill);
  const limits = cell.close();
  return { exitCode, timedOut, killed, lines, durationS: Math.round(performance.now() - started) / 1000, limits };
}
