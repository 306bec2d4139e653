/**
 * @module farm-processes
 * The local farm's workerd processes (descendants of this one), read from
 * /proc: their resident memory and the CPU time they have used. Linux only,
 * as the farm is.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** Ids of the workerd processes descended from this one. */
export function farmPids(): number[] {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // `pid (comm) state ppid ...`; comm may hold spaces, so read around the last parenthesis.
      const close = stat.lastIndexOf(")");
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
      name.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
    } catch {
      // The process ended while we looked.
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return [...name].filter(([pid, comm]) => comm.includes("workerd") && mine(pid)).map(([pid]) => pid);
}

/** Resident memory (MB) of the farm's processes. */
export function farmRssMb(): number {
  let kb = 0;
  for (const pid of farmPids()) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // Gone.
    }
  }
  return Math.round(kb / 1024);
}

/** CPU time (ms, user + system) the farm's processes have used so far. */
export function farmCpuMs(): number {
  return cpuMsOf(farmPids());
}

/** CPU time (ms, user + system) the given processes have used so far. */
export function cpuMsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // Fields after the command: state is index 0, so utime (field 14) and stime (15) sit at 11 and 12.
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Gone.
    }
  }
  return (ticks * 1000) / TICKS_PER_S;
}
