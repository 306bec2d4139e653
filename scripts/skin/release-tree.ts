/**
 * @module release-tree
 * Writes a re-skinned release: every tracked file of the checkout with the
 * skin applied to its path and its text, and the release id carrying the
 * skin's tag (so its worlds and docs canaries differ from the original's).
 * Records of runs on the original skin (`bench-results/`) are left out; the
 * lock file and binary files are copied unchanged.
 */
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Rewriter } from "./rewrite.ts";
import type { TreeFile } from "./tree.ts";

const LEFT_OUT = [/^bench-results\//];
const VERBATIM = new Set(["package-lock.json"]);
export const RELEASE_FILE = "declarations/release.ts";

export interface ReleaseSummary {
  files: number;
  rewritten: number;
  renamedPaths: number;
  leftOut: number;
  releaseId: string;
}

/** Refuses an output folder that exists and is not empty, or one inside the tree's tracked folders. */
export function checkOut(out: string, root: string): void {
  const st = statSync(out, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) throw new Error(`--out ${out} exists and is not a folder`);
  if (st && readdirSync(out).length) throw new Error(`--out ${out} exists and is not empty`);
  const inside = relative(resolve(root), resolve(out));
  if (inside === "") throw new Error("--out must not be the checkout itself");
  const underWirebench = inside.split(/[\\/]/)[0] === ".wirebench";
  if (!inside.startsWith("..") && !isAbsolute(inside) && !underWirebench) throw new Error(`--out ${out} is inside the checkout; use a folder outside it or under .wirebench/`);
}

/** The release id of a skin: the original id and the tag (`r1` and `3f9a2c` give `r1x3f9a2c`). */
export function skinnedReleaseId(original: string, tag: string): string {
  return `${original}x${tag}`;
}

export function writeRelease(files: readonly TreeFile[], out: string, rewrite: Rewriter, releaseId: { from: string; to: string }): ReleaseSummary {
  const summary: ReleaseSummary = { files: 0, rewritten: 0, renamedPaths: 0, leftOut: 0, releaseId: releaseId.to };
  const written = new Set<string>();
  for (const f of files) {
    if (LEFT_OUT.some((re) => re.test(f.path))) {
      summary.leftOut++;
      continue;
    }
    const path = rewrite(f.path);
    if (written.has(path)) throw new Error(`two files would be written to ${path}`);
    written.add(path);
    let bytes: Buffer | string = f.bytes;
    if (f.text !== null && !VERBATIM.has(f.path)) {
      let text = rewrite(f.text);
      if (f.path === RELEASE_FILE) {
        const declared = `RELEASE_ID = "${releaseId.from}"`;
        if (!text.includes(declared)) throw new Error(`${RELEASE_FILE} does not declare ${declared}`);
        text = text.replace(declared, `RELEASE_ID = "${releaseId.to}"`);
      }
      if (text !== f.text) summary.rewritten++;
      bytes = text;
    }
    if (path !== f.path) summary.renamedPaths++;
    const target = join(out, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, bytes, { flag: "wx" });
    if (f.executable) chmodSync(target, 0o755);
    summary.files++;
  }
  return summary;
}
