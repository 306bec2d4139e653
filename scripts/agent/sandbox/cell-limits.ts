/**
 * @module cell-limits
 * Resource limits of one sandboxed command: a control group of its own for
 * memory (tmpfs pages its processes write count too) and process count, when
 * the harness runs as root on a machine with cgroup v1 or v2 mounted; the
 * file-size and core-dump rlimits (`prlimit`) everywhere. Closing the cell
 * kills whatever is still in the group, so nothing a command started outlives
 * it, whichever process tree or session it moved to.
 */
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface CellLimits {
  /** Memory of every process in the cell, page cache and tmpfs pages included (bytes). */
  memoryBytes: number;
  /** Processes and threads at once. */
  pids: number;
  /** Size of the sandbox's private /tmp (bytes). */
  tmpBytes: number;
  /** Largest file a process may write (bytes; RLIMIT_FSIZE). */
  fileBytes: number;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** An agent: its CLI, the tools and builds it runs, the connector it tries. */
export const AGENT_LIMITS: CellLimits = { memoryBytes: 6 * GiB, pids: 2048, tmpBytes: 1 * GiB, fileBytes: 1 * GiB };
/** One connector process being graded (or its listener). */
export const CONNECTOR_LIMITS: CellLimits = { memoryBytes: 2 * GiB, pids: 512, tmpBytes: 256 * MiB, fileBytes: 256 * MiB };

/** What the limits did to the command. */
export interface CellReport {
  /** How the limits were enforced: a control group (v1 or v2), or rlimits alone. */
  enforcement: "cgroup-v1" | "cgroup-v2" | "rlimits";
  /** Processes killed for memory. */
  oomKills: number;
  /** Forks refused at the process limit. */
  pidsRefused: number;
}

export interface Cell {
  /** Puts a process (and so everything it starts) into the cell. */
  enter(pid: number): void;
  /** Kills everything still in the cell and removes it; returns what the limits did. */
  close(): CellReport;
  /** The argv prefix that applies the rlimits to the command it starts. */
  readonly rlimitPrefix: string[];
}

const ROOT = "/sys/fs/cgroup";

function read(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** The number after `key` in a flat-keyed cgroup file (`oom_kill 3`). */
function counter(file: string, key: string): number {
  const m = new RegExp(`^${key} (\\d+)$`, "m").exec(read(file));
  return m ? Number(m[1]) : 0;
}

function killProcs(dirs: string[]): void {
  // A process may fork while it is being killed: read the list again until it stays empty.
  for (let round = 0; round < 50; round++) {
    const pids = dirs.flatMap((d) => read(join(d, "cgroup.procs")).split("\n").filter(Boolean).map(Number));
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        /* gone */
      }
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
}

function removeDirs(dirs: string[]): void {
  for (const d of dirs) {
    for (let round = 0; round < 50; round++) {
      try {
        rmdirSync(d);
        break;
      } catch {
        // The kernel empties a group a moment after its last process dies.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
      }
    }
  }
}

function prlimitPrefix(limits: CellLimits): string[] {
  return existsSync("/usr/bin/prlimit") ? ["/usr/bin/prlimit", `--fsize=${limits.fileBytes}`, "--core=0", "--"] : [];
}

function cgroupV2(name: string, limits: CellLimits): Cell | null {
  if (!existsSync(join(ROOT, "cgroup.controllers"))) return null;
  const controllers = read(join(ROOT, "cgroup.controllers"));
  if (!/\bmemory\b/.test(controllers) || !/\bpids\b/.test(controllers)) return null;
  try {
    writeFileSync(join(ROOT, "cgroup.subtree_control"), "+memory +pids");
  } catch {
    /* already on, or refused: the mkdir below tells */
  }
  const dir = join(ROOT, name);
  try {
    mkdirSync(dir);
    writeFileSync(join(dir, "memory.max"), String(limits.memoryBytes));
    writeFileSync(join(dir, "pids.max"), String(limits.pids));
    if (existsSync(join(dir, "memory.swap.max"))) writeFileSync(join(dir, "memory.swap.max"), "0");
  } catch {
    removeDirs([dir]);
    return null;
  }
  return {
    rlimitPrefix: prlimitPrefix(limits),
    enter: (pid) => writeFileSync(join(dir, "cgroup.procs"), String(pid)),
    close() {
      const report: CellReport = { enforcement: "cgroup-v2", oomKills: counter(join(dir, "memory.events"), "oom_kill"), pidsRefused: counter(join(dir, "pids.events"), "max") };
      try {
        writeFileSync(join(dir, "cgroup.kill"), "1");
      } catch {
        /* kernels before 5.14: one by one */
      }
      killProcs([dir]);
      removeDirs([dir]);
      return report;
    },
  };
}

function cgroupV1(name: string, limits: CellLimits): Cell | null {
  const memory = join(ROOT, "memory", name);
  const pids = join(ROOT, "pids", name);
  if (!existsSync(join(ROOT, "memory", "cgroup.procs")) || !existsSync(join(ROOT, "pids", "cgroup.procs"))) return null;
  try {
    mkdirSync(memory);
    mkdirSync(pids);
    writeFileSync(join(memory, "memory.limit_in_bytes"), String(limits.memoryBytes));
    if (existsSync(join(memory, "memory.memsw.limit_in_bytes"))) writeFileSync(join(memory, "memory.memsw.limit_in_bytes"), String(limits.memoryBytes));
    writeFileSync(join(pids, "pids.max"), String(limits.pids));
  } catch {
    removeDirs([memory, pids]);
    return null;
  }
  return {
    rlimitPrefix: prlimitPrefix(limits),
    enter(pid) {
      writeFileSync(join(memory, "cgroup.procs"), String(pid));
      writeFileSync(join(pids, "cgroup.procs"), String(pid));
    },
    close() {
      const report: CellReport = { enforcement: "cgroup-v1", oomKills: counter(join(memory, "memory.oom_control"), "oom_kill"), pidsRefused: counter(join(pids, "pids.events"), "max") };
      killProcs([pids, memory]);
      removeDirs([memory, pids]);
      return report;
    },
  };
}

let sequence = 0;

/**
 * A fresh cell for one command. Without root (or without a writable cgroup
 * mount) the cell enforces the rlimits alone and says so in its report.
 */
export function openCell(limits: CellLimits): Cell {
  const name = `wirebench-${process.pid}-${++sequence}`;
  if (process.getuid?.() === 0) {
    const cell = cgroupV2(name, limits) ?? cgroupV1(name, limits);
    if (cell) return cell;
  }
  return { rlimitPrefix: prlimitPrefix(limits), enter: () => {}, close: () => ({ enforcement: "rlimits", oomKills: 0, pidsRefused: 0 }) };
}
