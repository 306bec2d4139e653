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
 *
 * One compiler run checks every case: the cases' folders sit side by side under
 * one tsconfig (each file a module, imports relative, so no case sees another),
 * and each case's test reads the diagnostics under its folder. A run per case
 * spent most of its time loading the compiler and parsing the same libraries.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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

const folderOf = (name: string) => name.replace(/\W+/g, "-");

/** The compiler's diagnostics per case folder (a diagnostic's continuation lines kept with it), and its whole output. */
let diagnostics = new Map<string, string[]>();
let compilerOutput = "";
let compilerStatus: number | null = null;

beforeAll(() => {
  for (const c of cases) {
    const dir = join(work, "cases", folderOf(c.name));
    mkdirSync(dir, { recursive: true });
    cpSync(c.starter, dir, { recursive: true });
    if (c.overlay) cpSync(c.overlay, dir, { recursive: true });
  }
  writeFileSync(join(work, "tsconfig.json"), `${JSON.stringify({ ...TSCONFIG, include: ["cases/**/*.ts"] }, null, 2)}\n`);
  const run = spawnSync(process.execPath, [tscBin(), "-p", work, "--pretty", "false"], { cwd: work, encoding: "utf8", maxBuffer: 64 * 1024 ** 2 });
  compilerOutput = `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ? String(run.error) : ""}`.trim();
  compilerStatus = run.status;
  diagnostics = new Map();
  let current: string[] | null = null;
  for (const line of compilerOutput.split("\n")) {
    const m = /^cases[\\/]([^\\/]+)[\\/]/.exec(line);
    if (m) {
      current = diagnostics.get(m[1]) ?? [];
      diagnostics.set(m[1], current);
      current.push(line);
    } else if (current && /^\s/.test(line)) current.push(line);
    else current = null;
  }
}, 300_000);

describe("task starters and solution overlays type-check", () => {
  it("finds tasks with overlays", () => {
    expect(cases.filter((c) => c.overlay).length).toBeGreaterThan(0);
  });

  it("the compiler ran, and every diagnostic it gave names a case's file", () => {
    const attributed = [...diagnostics.values()].reduce((n, lines) => n + lines.length, 0);
    const lines = compilerOutput === "" ? 0 : compilerOutput.split("\n").length;
    failed ||= compilerStatus === null || attributed !== lines;
    expect(compilerStatus, compilerOutput).not.toBeNull();
    expect(attributed, `diagnostics outside the cases' folders:\n${compilerOutput}`).toBe(lines);
  });

  it.each(cases.map((c) => [c.name, c] as const))("%s", (name, c) => {
    const mine = diagnostics.get(folderOf(name)) ?? [];
    failed ||= mine.length > 0;
    expect(mine.join("\n"), `tsc failed for ${name} (${c.what}; laid out in ${join(work, "cases", folderOf(name))})`).toBe("");
  });
});
