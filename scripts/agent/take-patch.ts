/**
 * @module take-patch
 * The agent's patch, taken without trusting its repository. The agent could
 * write every file of `workspace/repo`, `.git/config`, hooks and
 * `.gitattributes` included, so no git process ever runs there: the working
 * tree is copied (untrusted-tree.ts: no links followed, no `.git`) over a
 * fresh baseline repository the harness builds from the task's starter, and
 * the diff is taken in that one, with no system or global configuration, no
 * hooks, no fsmonitor, no external diff and no textconv.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyUntrustedTree } from "./untrusted-tree.ts";
import { BASELINE, git, initBaselineRepo } from "./workspace.ts";

/** Largest patch an attempt may leave (bytes); a larger one fails the attempt. */
export const PATCH_MAX_BYTES = 8 * 1024 ** 2;
/** What the copy of the agent's working tree may hold. */
const TREE_CAPS = { maxBytes: 256 * 1024 ** 2, maxEntries: 20_000 };

export type TakenPatch = { ok: true; patch: string } | { ok: false; reason: string };

/** The binary diff from the starter (`starterDir`) to the agent's working tree (`agentRepo`). */
export function takePatch(starterDir: string, agentRepo: string): TakenPatch {
  const scratch = mkdtempSync(join(tmpdir(), "wb-patch-"));
  try {
    const repo = join(scratch, "repo");
    initBaselineRepo(repo, starterDir);
    for (const name of readdirSync(repo)) if (name !== ".git") rmSync(join(repo, name), { recursive: true, force: true });
    const refused = copyUntrustedTree(agentRepo, repo, TREE_CAPS);
    if (refused) return { ok: false, reason: refused };
    git(repo, ["add", "-A"]);
    const patch = git(repo, ["diff", "--cached", "--binary", "--no-ext-diff", "--no-textconv", BASELINE]);
    if (Buffer.byteLength(patch) > PATCH_MAX_BYTES) return { ok: false, reason: `the patch is ${Buffer.byteLength(patch)} bytes, over the ${PATCH_MAX_BYTES}-byte cap` };
    return { ok: true, patch };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
