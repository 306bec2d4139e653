/**
 * @module submitted-tree
 * What an attempt submits, from a connector folder: the patch its working tree
 * makes against the task's starter (take-patch.ts: no git process in the
 * folder, no links followed, the files its `.gitignore` excludes left out),
 * applied to a fresh copy of the starter (apply-patch.ts). `wirebench grade
 * --repo` grades this tree, so a folder is graded as a run would grade it:
 * local state the connector left behind while it was developed against its
 * development world (a watermark, a token cache, an output folder) is not part
 * of the submission.
 */
import { type AppliedPatch, applyUntrustedPatch } from "./apply-patch.ts";
import { takePatch } from "./take-patch.ts";

/** Writes into `target` the starter plus the patch the folder `repoDir` makes against it. */
export function submittedTree(starterDir: string, repoDir: string, target: string): AppliedPatch {
  const taken = takePatch(starterDir, repoDir);
  if (!taken.ok) return taken;
  return applyUntrustedPatch(starterDir, taken.patch, target);
}
