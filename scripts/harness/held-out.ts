/**
 * @module held-out
 * Held-out tasks: task folders kept outside the repository (a lab's private
 * set, never published in detail). `WIREBENCH_TASKS=<dir>` or `wirebench
 * --tasks <dir>` names a folder of task folders; the CLI copies them under
 * `.wirebench/held-out/tasks/`, writes a registry of their tasks and one of
 * their drives, and runs itself again with the `wirebench-held-out` import
 * condition, under which `#held-out` and `#held-out-drives` resolve to those
 * registries (package.json `imports`). The Worker bundles get the same
 * registry through wrangler's `--alias` (scripts/farm/build-worker.ts).
 *
 * A held-out task is written like a public one, except that it imports
 * wirebench's modules as `#wirebench/<path from the repository root>` (for
 * example `#wirebench/declarations/schema/task.ts`), since its folder does not
 * sit in `declarations/tasks/`.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { projectRoot } from "../farm/paths.ts";

/** The import condition under which `#held-out` resolves to the mounted registry. */
export const HELD_OUT_CONDITION = "wirebench-held-out";

/** Where held-out tasks are mounted. */
export function heldOutRoot(): string {
  return join(projectRoot(), ".wirebench", "held-out");
}

/** Whether this process resolves `#held-out` to a mounted registry. */
export function heldOutActive(): boolean {
  return process.execArgv.includes(`--conditions=${HELD_OUT_CONDITION}`);
}

/** A held-out task's id has the form of a public one (`task-` and four digits), outside the public range in practice. */
const TASK_ID = /^task-\d{4}$/;
const SKIP = new Set(["node_modules", ".git", "output"]);

/** The environment variable naming this process's mount (set by the CLI when it runs itself again). */
export const MOUNT_ENV = "WIREBENCH_HELD_OUT_MOUNT";

/** This process's mount folder (`.wirebench/held-out/mounts/<hash>`), or null. */
export function heldOutMount(): string | null {
  return process.env[MOUNT_ENV] || null;
}

/** The folder a held-out task was mounted from (where `validate --write-gold` writes its manifest too). */
export function heldOutSource(id: string): string | null {
  const mount = heldOutMount();
  const file = mount ? join(mount, "sources.json") : null;
  if (!file || !existsSync(file)) return null;
  const sources = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
  return Object.hasOwn(sources, id) ? sources[id] : null;
}

/** Every file of the task folders, path and bytes, in order: what a mount is named by. */
function contentHash(source: string, ids: string[]): string {
  const h = createHash("sha256");
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (SKIP.has(name)) continue;
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p, `${rel}/${name}`);
      else if (st.isFile()) h.update(`${rel}/${name}\0`).update(readFileSync(p)).update("\0");
    }
  };
  for (const id of ids) walk(join(source, id), id);
  return h.digest("hex").slice(0, 16);
}

/** Writes a file whole or not at all (a rename), and only when its text changes. */
function writeAtomically(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, "utf8") === text) return;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Copies the task folders of `dir` into a mount named by their content
 * (`.wirebench/held-out/mounts/<hash>/`, never changed once made, so a
 * process still reading an earlier mount is not disturbed) and points the two
 * registries at it; returns the mount folder and the task ids. Throws, naming
 * the folder, on anything that is not a task folder or collides with a public task.
 */
export function mountHeldOut(dir: string): { mount: string; ids: string[] } {
  const source = resolve(dir);
  if (!existsSync(source) || !lstatSync(source).isDirectory()) throw new Error(`held-out tasks: ${dir} is not a folder`);
  const ids: string[] = [];
  for (const name of readdirSync(source).sort()) {
    if (name.startsWith(".")) continue;
    const folder = join(source, name);
    if (!lstatSync(folder).isDirectory()) throw new Error(`held-out tasks: ${name} is not a task folder (a held-out folder holds task folders only)`);
    if (!TASK_ID.test(name)) throw new Error(`held-out tasks: ${name} is not a task id (task- and four digits)`);
    if (existsSync(join(projectRoot(), "declarations", "tasks", name))) throw new Error(`held-out tasks: ${name} is a public task's id`);
    for (const need of ["task.ts", "drive.ts", "PROBLEM.md", "repo"]) if (!existsSync(join(folder, need))) throw new Error(`held-out tasks: ${name} has no ${need}`);
    ids.push(name);
  }
  if (!ids.length) throw new Error(`held-out tasks: ${dir} holds no task folder`);
  const root = heldOutRoot();
  const hash = contentHash(source, ids);
  const mount = join(root, "mounts", hash);
  if (!existsSync(mount)) {
    // Built beside its place and moved in whole; a process that mounted the same content first wins.
    const tmp = join(root, "mounts", `.tmp-${process.pid}-${hash}`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    for (const id of ids) cpSync(join(source, id), join(tmp, id), { recursive: true, verbatimSymlinks: true, filter: (p) => !SKIP.has(p.split(/[\\/]/).pop()!) || p === join(source, id) });
    try {
      renameSync(tmp, mount);
    } catch {
      rmSync(tmp, { recursive: true, force: true });
      if (!existsSync(mount)) throw new Error(`held-out tasks: could not mount ${dir}`);
    }
  }
  writeAtomically(join(mount, "sources.json"), `${JSON.stringify(Object.fromEntries(ids.map((id) => [id, join(source, id)])), null, 2)}\n`);
  const at = (id: string) => `./mounts/${hash}/${id}`;
  const gold = (id: string) => existsSync(join(mount, id, "gold-manifest.json"));
  writeAtomically(
    join(root, "registry.ts"),
    [
      "// Generated by wirebench from a held-out folder (scripts/harness/held-out.ts); do not edit.",
      'import type { TaskEntry } from "../../declarations/tasks/index.ts";',
      ...ids.map((id, i) => `import t${i} from "${at(id)}/task.ts";`),
      ...ids.flatMap((id, i) => (gold(id) ? [`import g${i} from "${at(id)}/gold-manifest.json" with { type: "json" };`] : [])),
      "",
      `export const HELD_OUT: readonly TaskEntry[] = [${ids.map((id, i) => `{ task: t${i}, gold: ${gold(id) ? `g${i} as TaskEntry["gold"]` : "null"} }`).join(", ")}];`,
      "",
    ].join("\n"),
  );
  writeAtomically(
    join(root, "drives.ts"),
    [
      "// Generated by wirebench from a held-out folder (scripts/harness/held-out.ts); do not edit.",
      'import type { Drives } from "../../declarations/schema/task.ts";',
      ...ids.map((id, i) => `import d${i} from "${at(id)}/drive.ts";`),
      "",
      `export const HELD_OUT_DRIVES: Readonly<Record<string, Drives>> = { ${ids.map((id, i) => `${JSON.stringify(id)}: d${i}`).join(", ")} };`,
      "",
    ].join("\n"),
  );
  return { mount, ids };
}

/** The held-out folder a command line names: `--tasks DIR` before the verb, else `WIREBENCH_TASKS`. */
export function heldOutFolder(argv: string[], env: NodeJS.ProcessEnv): string | null {
  const i = argv.indexOf("--tasks");
  if (i >= 0 && argv[i + 1]) return argv[i + 1];
  const eq = argv.find((a) => a.startsWith("--tasks="));
  if (eq) return eq.slice("--tasks=".length);
  return env.WIREBENCH_TASKS || null;
}
