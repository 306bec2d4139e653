/**
 * @module tree
 * The repository's tracked files, read once: the corpus a skin is checked
 * against and the source of a re-skinned release.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Corpus } from "./skin-map.ts";

export interface TreeFile {
  /** Path inside the repository, `/`-separated. */
  path: string;
  bytes: Buffer;
  executable: boolean;
  /** Null for a binary file (one with a NUL byte), which a skin copies unchanged. */
  text: string | null;
}

/** Folders whose non-test files make up the engine: a word they name is the engine's, not a declaration's. */
const ENGINE = ["mechanics/", "workers/", "scripts/", "declarations/schema/", "evidence/", "migrations/"];
/** The skin's own code and tests, which quote old and new names as examples: neither engine nor vocabulary. */
const SKIN = "scripts/skin/";

/** The files git tracks under `root` (a skin is made from a checkout, never from stray files). */
export function readTree(root: string): TreeFile[] {
  let listing: string;
  try {
    listing = execFileSync("git", ["ls-files", "-z", "--cached"], { cwd: root, encoding: "utf8", maxBuffer: 64 << 20 });
  } catch {
    throw new Error(`${root} is not a git checkout of wirebench (git ls-files failed)`);
  }
  const files: TreeFile[] = [];
  for (const path of listing.split("\0").filter(Boolean)) {
    const full = join(root, path);
    const st = statSync(full, { throwIfNoEntry: false });
    if (!st?.isFile()) continue; // deleted in the work tree, or not a regular file
    const bytes = readFileSync(full);
    files.push({ path, bytes, executable: (st.mode & 0o111) !== 0, text: bytes.includes(0) ? null : bytes.toString("utf8") });
  }
  return files;
}

const TOKEN = /[A-Za-z_][A-Za-z0-9_]*/g;

/** What a skin checks its new names against. */
export function corpusOf(files: readonly TreeFile[]): Corpus {
  const tokens = new Set<string>();
  const engineTokens = new Set<string>();
  const lower: string[] = [];
  for (const f of files) {
    if (f.text === null) continue;
    lower.push(f.path.toLowerCase(), f.text.toLowerCase());
    if (f.path.startsWith(SKIN)) continue;
    const engine = ENGINE.some((d) => f.path.startsWith(d)) && !/\.test\.ts$/.test(f.path);
    for (const m of f.text.matchAll(TOKEN)) {
      tokens.add(m[0]);
      if (engine) engineTokens.add(m[0]);
    }
  }
  return { tokens, engineTokens, lowerText: lower.join("\n") };
}
