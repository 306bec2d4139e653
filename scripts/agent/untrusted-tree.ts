/**
 * @module untrusted-tree
 * Copying a folder the agent wrote into one the harness owns, as an
 * untrusted folder must be copied: no link is followed (a link is copied as a
 * link, its target only text), no other device is entered, nothing but
 * regular files, folders and links is taken, every file is opened without
 * following a link and checked to be a regular file, and the copy stops at a
 * size and a file-count cap. `.git` folders and `node_modules` are left
 * behind: the harness never reads the agent's repository configuration, and
 * installed packages are never part of a patch the grader uses.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, readSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface TreeCaps {
  /** Bytes of file content at most. */
  maxBytes: number;
  /** Files, folders and links at most. */
  maxEntries: number;
}

const LEFT_BEHIND = new Set([".git", "node_modules"]);

/** Reads one regular file without following a link; null when it is not one. */
function readRegular(path: string, limit: number): Buffer | null | "over" {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size > limit) return "over";
    const buf = Buffer.alloc(st.size);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = readSync(fd, buf, n, buf.length - n, null);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies `source` into `target` (an existing folder the harness owns).
 * Returns null, or why the tree is refused (over a cap).
 */
export function copyUntrustedTree(source: string, target: string, caps: TreeCaps): string | null {
  const device = lstatSync(source).dev;
  let bytes = 0;
  let entries = 0;
  const stack: string[] = [""];
  while (stack.length) {
    const rel = stack.pop()!;
    const names = readdirSync(join(source, rel));
    for (const name of names) {
      if (LEFT_BEHIND.has(name)) continue;
      const from = join(source, rel, name);
      const to = join(target, rel, name);
      const st = lstatSync(from, { throwIfNoEntry: false });
      if (!st || st.dev !== device) continue;
      if (++entries > caps.maxEntries) return `the repository holds more than ${caps.maxEntries} files and folders`;
      if (st.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
      else if (st.isDirectory()) {
        mkdirSync(to);
        stack.push(join(rel, name));
      } else if (st.isFile()) {
        const data = readRegular(from, caps.maxBytes - bytes);
        if (data === "over") return `the repository's files add up to more than ${caps.maxBytes} bytes`;
        if (data === null) continue;
        bytes += data.length;
        writeFileSync(to, data, { mode: st.mode & 0o755 });
      }
    }
  }
  return null;
}
