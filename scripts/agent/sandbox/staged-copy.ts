/**
 * @module staged-copy
 * Read-only things the sandbox mounts from the checkout (the pinned Node, the
 * network bridge, a lane's CLI) are mounted from a copy outside it: a bind
 * mount's source path shows in the sandbox's `/proc/self/mountinfo`, and the
 * checkout's path is none of the agent's business. A copy is made once per
 * source version (keyed by path, inode and modification time), owned by the
 * harness, and shared by every sandbox after it.
 */
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

/** Folder holding the staged copies. */
export function stagingRoot(): string {
  const root = join(tmpdir(), "wirebench-runtime");
  mkdirSync(root, { recursive: true, mode: 0o755 });
  chmodSync(root, 0o755);
  return root;
}

/** A copy of `source` (a file or a folder) outside the checkout, made the first time it is asked for. */
export function stagedCopy(source: string): string {
  const st = statSync(source);
  const key = createHash("sha256").update(`${source}\0${st.ino}\0${st.mtimeMs}\0${st.size}`).digest("hex").slice(0, 16);
  const root = stagingRoot();
  const target = join(root, `${key}-${basename(source)}`);
  if (existsSync(target)) return target;
  const scratch = mkdtempSync(join(root, ".staging-"));
  const copy = join(scratch, basename(source));
  cpSync(source, copy, { recursive: true, dereference: true, preserveTimestamps: true });
  chmodSync(scratch, 0o755);
  try {
    renameSync(copy, target);
  } catch {
    // Another harness staged the same source first: theirs is as good.
  }
  rmSync(scratch, { recursive: true, force: true });
  return target;
}
