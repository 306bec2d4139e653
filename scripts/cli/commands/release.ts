import { makeRelease } from "../../skin/make-release.ts";
import { UsageError } from "../errors.ts";

/** Options of `wirebench release`. */
export interface ReleaseOptions {
  skin?: string;
  out?: string;
  map?: string;
  json?: boolean;
}

/** `wirebench release --skin KEY --out DIR`: writes a re-skinned release of the public set. */
export async function release(opts: ReleaseOptions): Promise<void> {
  if (!opts.skin?.trim()) throw new UsageError("--skin <key> is required (any string; the same key gives the same release)");
  if (!opts.out) throw new UsageError("--out <dir> is required");
  let result: ReturnType<typeof makeRelease>;
  try {
    result = makeRelease({ key: opts.skin, out: opts.out, mapFile: opts.map });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { summary, skin } = result;
  if (opts.json) {
    console.log(
      JSON.stringify({
        summary,
        tag: skin.tag,
        renamed: { brands: skin.brands.length, prefixes: Object.keys(skin.prefixes).length, services: Object.keys(skin.services).length, words: Object.keys(skin.words).length },
        kept: skin.kept.length,
      }),
    );
    return;
  }
  console.log(
    `release ${summary.releaseId}: ${summary.files} files written to ${opts.out} (${summary.rewritten} rewritten, ${summary.renamedPaths} paths renamed, ${summary.leftOut} records of the original left out)`,
  );
  console.log(
    `renamed: ${skin.brands.length} vendors, ${Object.keys(skin.prefixes).length} id and credential prefixes, ${Object.keys(skin.services).length} services, ${Object.keys(skin.words).length} compound field names and error codes; kept ${skin.kept.length} (${opts.map ? `see ${opts.map}` : "--map FILE lists them"})`,
  );
  console.log("next, inside the release: install or link node_modules, `npm run fixtures` (its answer keys), then `npm run validate` or `npm test`");
}
