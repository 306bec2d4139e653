/**
 * @module scratch-storage
 * Where a farm without a state folder keeps its storage. Miniflare's
 * "in memory" is a folder under the system's temporary directory, on disk:
 * every commit of a world's SQLite storage (one per turn that logged a
 * request) then waits for the disk to flush, although nothing of that
 * storage outlives the farm. A RAM-backed file system (`/dev/shm`), when the
 * machine has one with room, makes the storage what the farm is said to be:
 * in memory. A folder is removed when its farm stops or its process exits,
 * and folders left by processes that are gone (killed) are removed when the
 * next farm starts.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statfsSync } from "node:fs";
import { join } from "node:path";

/** The RAM-backed file system tried first. */
const RAM_DIR = "/dev/shm";
/** Free space it must have to be used: a world's storage is about 0.3 MB, and 1,000 worlds must fit. */
const MIN_FREE_BYTES = 1024 ** 3;
const PREFIX = "wirebench-farm-";
/** Folders of this process's farms still running, removed at exit if their farm was never stopped. */
const live = new Set<string>();
process.on("exit", () => {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
});

/** Whether a process with this id is running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the folders of farms whose process is gone. */
function sweep(base: string): void {
  for (const name of readdirSync(base)) {
    const pid = Number(/^wirebench-farm-(\d+)-/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(base, name), { recursive: true, force: true });
  }
}

/** A folder for a farm's storage: removed by `remove()`, or when this process exits. */
export interface ScratchStorage {
  dir: string;
  remove(): void;
}

/**
 * A RAM-backed folder for a farm's storage, or undefined when the machine
 * has none with room (Miniflare's own temporary folder is used then).
 */
export function ramStorage(base = RAM_DIR, minFreeBytes = MIN_FREE_BYTES): ScratchStorage | undefined {
  try {
    if (!existsSync(base)) return undefined;
    const fs = statfsSync(base);
    if (fs.bavail * fs.bsize < minFreeBytes) return undefined;
    sweep(base);
    const dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
    live.add(dir);
    return {
      dir,
      remove: () => {
        live.delete(dir);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch {
    return undefined;
  }
}
