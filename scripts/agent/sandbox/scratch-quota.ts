/**
 * @module scratch-quota
 * A size cap on a scratch folder the sandbox writes (an attempt's workspace
 * and home, a grading cell's connector copies): when the harness runs as
 * root, the folder becomes a tmpfs of that size, so a command that fills it
 * gets ENOSPC and the machine's disk is untouched. Without root there is no
 * cap; the attempt's summary says which it had.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";

export interface ScratchQuota {
  /** The cap in bytes, or null when the folder has none. */
  bytes: number | null;
  /** Unmounts the folder's tmpfs (its contents go with it) and removes the folder. */
  release(): void;
}

/** Caps `dir` (an empty folder the harness made) at `bytes`, when it can. */
export function capScratch(dir: string, bytes: number): ScratchQuota {
  if (process.getuid?.() === 0) {
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${bytes},mode=0711,nosuid,nodev`, "tmpfs", dir], { stdio: "pipe" });
      return {
        bytes,
        release() {
          try {
            execFileSync("umount", ["-l", dir], { stdio: "pipe" });
          } catch {
            /* not mounted any more */
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch {
      /* no mount here: fall through */
    }
  }
  return { bytes: null, release: () => rmSync(dir, { recursive: true, force: true }) };
}
