/**
 * @module make-release
 * `wirebench release --skin KEY --out DIR`, as a function: reads the
 * checkout, derives the skin from the vendor declarations and the key, and
 * writes the re-skinned release.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { RELEASE_ID } from "../../declarations/release.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { rewriter } from "./rewrite.ts";
import { checkOut, type ReleaseSummary, skinnedReleaseId, writeRelease } from "./release-tree.ts";
import { buildSkin, type SkinMap } from "./skin-map.ts";
import { corpusOf, readTree } from "./tree.ts";
import { vocabularyOf } from "./vocabulary.ts";

/** The checkout this code runs from. */
export const REPO_ROOT = resolve(import.meta.dirname, "../..");

export interface ReleaseResult {
  summary: ReleaseSummary;
  skin: SkinMap;
}

/** The skin of this checkout's vendors under `key`. */
export function skinOf(key: string, root = REPO_ROOT): { skin: SkinMap; files: ReturnType<typeof readTree> } {
  const files = readTree(root);
  const skin = buildSkin(key, vocabularyOf(Object.values(VENDORS)), corpusOf(files));
  return { skin, files };
}

export function makeRelease(opts: { key: string; out: string; mapFile?: string; root?: string }): ReleaseResult {
  const root = opts.root ?? REPO_ROOT;
  const out = resolve(opts.out);
  checkOut(out, root);
  if (opts.mapFile && !relative(out, resolve(opts.mapFile)).startsWith("..")) throw new Error("--map must be written outside the release (the map names the original skin)");
  const { skin, files } = skinOf(opts.key, root);
  mkdirSync(out, { recursive: true });
  const summary = writeRelease(files, out, rewriter(skin), { from: RELEASE_ID, to: skinnedReleaseId(RELEASE_ID, skin.tag) });
  if (opts.mapFile) {
    mkdirSync(dirname(resolve(opts.mapFile)), { recursive: true });
    writeFileSync(resolve(opts.mapFile), `${JSON.stringify(skin, null, 2)}\n`);
  }
  return { summary, skin };
}
