/**
 * Type-checks every task's starter (`repo/`) and every solution overlay laid
 * over it, the way the harness builds a probe's workspace (starter first, then
 * `cpSync(overlay, dir, { recursive: true })`). Overlays hold only the files
 * that differ from the starter, so they are not type-checked in place (the root
 * tsconfig excludes the `solutions` folders); this test is where they are
 * checked. Each case gets its own folder under the OS temp dir, outside the
 * repository, with a tsconfig for Node ESM run on `.ts` sources and Node's
 * types taken explicitly from this repository's node_modules/@types. A failed
 * case's folder is left behind for inspection.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const tasksDir = join(root, "declarations", "tasks");

/** The compiler's entry script, as the installed `typescript` package declares it. */
function tscBin(): string {
  const pkgDir = join(root, "node_modules", "typescript");
  const { bin } = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin: string | Record<string, string> };
  const rel = typeof bin === "string" ? bin : (bin.tsc ?? bin.tsgo ?? Object.values(bin)[0]);
  if (!rel) throw new Error("node_modules/typescript/package.json declares no bin");
  return join(pkgDir, rel);
}

/** What the starters are: Node >= 22 ESM packages run straight from `.ts` (type stripping). */
const TSCONFIG = {
  compilerOptions: {
    target: "es2023",
    lib: ["es2023"],
    module: "nodenext",
    moduleResolution: "nodenext",
    moduleDetection: "force",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    erasableSyntaxOnly: true,
    types: ["node"],
    typeRoots: [join(root, "node_modules", "@types")],
  },
  include: ["**/*.ts"],
};

interface Case {
  name: string;
  /** What is type-checked, relative to the task folder. */
  what: string;
  starter: string;
  overlay: string | null;
}

const cases: Case[] = readdirSync(tasksDir)
  .filter((id) => /^task-\d+$/.test(id) && statSync(join(tasksDir, id)).isDirectory())
  .sort()
  .flatMap((id) => {
    const starter = join(tasksDir, id, "repo");
    const solutions = join(tasksDir, id, "solutions");
    const overlays = existsSync(solutions) ? readdirSync(solutions).filter((p) => statSync(join(solutions, p)).isDirectory()) : [];
    return [
      { name: `${id} starter`, what: "repo/", starter, overlay: null },
      ...overlays.sort().map((p) => ({ name: `${id} ${p}`, what: `solutions/${p} overlaid on repo/`, starter, overlay: join(solutions, p) })),
    ];
  });

const work = mkdtempSync(join(tmpdir(), "wb-overlays-typecheck-"));
let failed = false;
afterAll(() => {
  if (!failed) rmSync(work, { recursive: true, force: true });
});

describe("task starters and solution overlays type-check", () => {
  it("finds tasks with overlays", () => {
    expect(cases.filter((c) => c.overlay).length).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (name, c) => {
    const dir = join(work, name.replace(/\W+/g, "-"));
    mkdirSync(dir);
    cpSync(c.starter, dir, { recursive: true });
    if (c.overlay) cpSync(c.overlay, dir, { recursive: true });
    writeFileSync(join(dir, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
    const run = spawnSync(process.execPath, [tscBin(), "-p", dir, "--pretty", "false"], { cwd: dir, encoding: "utf8" });
    const output = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`.trim();
    failed ||= run.status !== 0;
    expect(run.status, `tsc failed for ${name} (${c.what}; laid out in ${dir}):\n${output}`).toBe(0);
  });
});
