/**
 * @module layers
 * The layers of the code, bottom to top, and the check that imports run one
 * way: a file imports only from its own layer or a lower one, and no files
 * import each other in a circle. Type-only imports count (`import type`,
 * `export type ... from`, `import("...")` types), as do `export ... from` and
 * dynamic `import()` of a literal path: the list of a file's imports is the
 * TypeScript compiler's own (`SourceFile.imports`), read through its API over
 * the project's tsconfig. An `import()` of a path computed at run time (the
 * CLI loading a vendor file it is given) names no file the check could see.
 * Run: `node scripts/lint/layers.ts [root]`.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { API } from "typescript/unstable/sync";

/** One layer: the files it holds, as folder prefixes (`mechanics/`), file paths or suffixes (`*.test.ts`). */
export interface Layer {
  name: string;
  holds: string[];
}

/**
 * The layers, bottom first. A file belongs to the first layer, from the top,
 * that holds it: a test beside a mechanic is in `tests`. ARCHITECTURE.md
 * ("Layers") says what each is.
 */
export const LAYERS: readonly Layer[] = [
  { name: "evidence", holds: ["evidence/"] },
  { name: "mechanics", holds: ["mechanics/"] },
  { name: "schema", holds: ["declarations/schema/"] },
  { name: "vendors", holds: ["declarations/vendors/"] },
  { name: "tasks", holds: ["declarations/tasks/", "declarations/release.ts"] },
  { name: "workers", holds: ["workers/"] },
  { name: "scripts", holds: ["scripts/"] },
  { name: "cli", holds: ["scripts/cli/"] },
  { name: "tests", holds: ["test/", "*.test.ts", "vitest.config.ts", "vitest.e2e.config.ts", "drizzle.config.ts"] },
];

/** One import of one file: where it is and what it names, resolved to a file of the project (null for a package, "" for a path that names no file). */
export interface ImportEdge {
  from: string;
  line: number;
  specifier: string;
  to: string | null;
}

/** Something the check refuses. */
export type LayerProblem =
  | { kind: "upward"; from: string; line: number; to: string; fromLayer: string; toLayer: string }
  | { kind: "unplaced"; file: string }
  | { kind: "unresolved"; from: string; line: number; specifier: string }
  | { kind: "circle"; files: string[] };

function holds(pattern: string, file: string): boolean {
  if (pattern.startsWith("*")) return file.endsWith(pattern.slice(1));
  if (pattern.endsWith("/")) return file.startsWith(pattern);
  return file === pattern;
}

/** The index of a file's layer in `layers` (root-relative, `/`-separated), or -1. */
export function layerOf(file: string, layers: readonly Layer[] = LAYERS): number {
  for (let i = layers.length - 1; i >= 0; i--) if (layers[i].holds.some((p) => holds(p, file))) return i;
  return -1;
}

/** The file a relative specifier names, trying what the bundler resolution would (`.ts`, `.d.ts`, `index.ts`). */
function resolveSpecifier(fromAbs: string, specifier: string): string | null {
  const base = resolve(dirname(fromAbs), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.d.ts`, join(base, "index.ts")]) if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

const toPosix = (p: string) => p.split(sep).join("/");

/** Every import of every file of the project under `root` (its tsconfig.json), packages' files left out. */
export function readImports(root: string): { files: string[]; edges: ImportEdge[] } {
  const api = new API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProjects: [join(root, "tsconfig.json")] });
    const project = snapshot.getProjects()[0];
    if (!project) throw new Error(`no TypeScript project at ${join(root, "tsconfig.json")}`);
    const files: string[] = [];
    const edges: ImportEdge[] = [];
    for (const abs of project.program.getSourceFileNames()) {
      const rel = toPosix(relative(root, abs));
      if (rel.startsWith("..") || rel.split("/").includes("node_modules")) continue;
      const source = project.program.getSourceFile(abs);
      if (!source) continue;
      files.push(rel);
      for (const node of source.imports) {
        const specifier = (node as { text?: string }).text;
        if (typeof specifier !== "string") continue;
        const line = source.getLineAndCharacterOfPosition(source.text.indexOf(specifier, node.pos)).line + 1;
        const local = specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("/");
        const target = local ? resolveSpecifier(abs, specifier) : null;
        edges.push({ from: rel, line, specifier, to: target === null ? (local ? "" : null) : toPosix(relative(root, target)) });
      }
    }
    return { files: files.sort(), edges };
  } finally {
    api.close();
  }
}

/** Groups of files that import each other in a circle (Tarjan's strongly connected components; a file importing itself counts). */
export function circles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, Set<string>>(files.map((f) => [f, new Set<string>()]));
  for (const e of edges) if (e.to && next.has(e.to)) next.get(e.from)?.add(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { file: string; pending: string[] }[] = [];
    const enter = (file: string) => {
      index.set(file, counter);
      low.set(file, counter++);
      stack.push(file);
      onStack.add(file);
      work.push({ file, pending: [...(next.get(file) ?? [])] });
    };
    enter(start);
    while (work.length) {
      const top = work[work.length - 1];
      const w = top.pending.shift();
      if (w !== undefined) {
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(top.file, Math.min(low.get(top.file)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length) low.set(work[work.length - 1].file, Math.min(low.get(work[work.length - 1].file)!, low.get(top.file)!));
      if (low.get(top.file) !== index.get(top.file)) continue;
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== top.file);
      if (group.length > 1 || next.get(top.file)?.has(top.file)) found.push(group.sort());
    }
  }
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Every import of the project under `root` against the layers, and every circle. */
export function checkLayers(root: string, layers: readonly Layer[] = LAYERS): LayerProblem[] {
  return layerProblems(readImports(root), layers);
}

/** Every import against the layers, and every circle. */
export function layerProblems({ files, edges }: { files: string[]; edges: ImportEdge[] }, layers: readonly Layer[] = LAYERS): LayerProblem[] {
  const problems: LayerProblem[] = [];
  for (const file of files) if (layerOf(file, layers) < 0) problems.push({ kind: "unplaced", file });
  for (const e of edges) {
    if (e.to === "") problems.push({ kind: "unresolved", from: e.from, line: e.line, specifier: e.specifier });
    if (!e.to) continue;
    const from = layerOf(e.from, layers);
    const to = layerOf(e.to, layers);
    if (from >= 0 && to > from) problems.push({ kind: "upward", from: e.from, line: e.line, to: e.to, fromLayer: layers[from].name, toLayer: layers[to].name });
  }
  for (const group of circles(files, edges)) problems.push({ kind: "circle", files: group });
  return problems;
}

/** One line per problem. */
export function problemText(p: LayerProblem): string {
  switch (p.kind) {
    case "upward":
      return `${p.from}:${p.line} (${p.fromLayer}) imports ${p.to} (${p.toLayer}), a higher layer`;
    case "unplaced":
      return `${p.file} is in no layer`;
    case "unresolved":
      return `${p.from}:${p.line} imports "${p.specifier}", which names no file`;
    case "circle":
      return `circle of ${p.files.length} files: ${p.files.join(", ")}`;
  }
}

if (import.meta.main) {
  const root = resolve(process.argv[2] ?? ".");
  const problems = checkLayers(root);
  for (const p of problems) console.log(problemText(p));
  console.log(problems.length ? `${problems.length} problem(s)` : `imports run one way through ${LAYERS.length} layers`);
  process.exitCode = problems.length ? 1 : 0;
}
