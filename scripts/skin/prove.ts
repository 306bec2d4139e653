/**
 * @module prove
 * The proof a re-skinned release works, as CI runs it (`npm run
 * validate:skin`):
 *
 * 1. write the release of a key into `.wirebench/skin-proof/`;
 * 2. write, with the release's own code, what every public task's attempt
 *    hands its agent (workspace, prompt, environment), and scan it for the
 *    original skin's distinctive strings: there must be none;
 * 3. run the release's own `wirebench validate` over every task: every probe
 *    bar must hold.
 *
 * Usage: `node scripts/skin/prove.ts [--key K] [--jobs N] [--scan-only] [task ...]`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scanForLeaks } from "./leaks.ts";
import { makeRelease, REPO_ROOT } from "./make-release.ts";
import { vocabularyPattern } from "./rewrite.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { key: { type: "string", default: "wirebench-ci-proof" }, jobs: { type: "string", default: "8" }, "scan-only": { type: "boolean", default: false } },
});

const out = join(REPO_ROOT, ".wirebench", "skin-proof");
rmSync(out, { recursive: true, force: true });
const started = performance.now();
const { summary, skin } = makeRelease({ key: values.key, out });
symlinkSync(join(REPO_ROOT, "node_modules"), join(out, "node_modules"), "dir");
console.log(`release ${summary.releaseId}: ${summary.files} files, ${summary.rewritten} rewritten, ${summary.renamedPaths} paths renamed`);
console.log(
  `renamed ${skin.brands.length} vendors, ${Object.keys(skin.prefixes).length} prefixes, ${Object.keys(skin.services).length} services, ${Object.keys(skin.words).length} words; kept ${skin.kept.length} (${skin.kept.filter((k) => k.why === "the engine names it").length} named by the engine)`,
);

const node = process.execPath;
const workspaces = join(out, ".wirebench", "workspaces");
const written = spawnSync(node, ["scripts/skin/workspaces.ts", workspaces], { cwd: out, stdio: "inherit" });
if (written.status !== 0 || !existsSync(workspaces)) {
  console.error("the release could not write its workspaces");
  process.exit(1);
}
const { leaks, files } = scanForLeaks(workspaces, vocabularyPattern(skin));
console.log(`leak scan: ${files} workspace files read, ${leaks.length} original strings found`);
for (const l of leaks.slice(0, 30)) console.log(`  ${l.file}:${l.line}: ${l.found}`);
if (leaks.length) process.exit(1);
if (values["scan-only"]) process.exit(0);

const validated = spawnSync(node, ["scripts/cli/main.ts", "validate", "--jobs", values.jobs, ...positionals], { cwd: out, stdio: "inherit" });
console.log(`skin proof: ${((performance.now() - started) / 1000).toFixed(1)} s, validate exit ${validated.status}`);
process.exit(validated.status ?? 1);
