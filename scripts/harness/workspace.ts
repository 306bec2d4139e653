import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Task } from "../../declarations/schema/task.ts";
import { projectRoot } from "../farm/paths.ts";
import { heldOutActive, heldOutMount } from "./held-out.ts";

/** The reference submissions of the validation rig (`alt` only where a task has `solutions/alt/`). */
export type Probe = "empty" | "stub" | "gold" | "naive" | "alt";
export const PROBES: readonly Probe[] = ["empty", "stub", "gold", "naive"];

/** Folder of a task's files: a public task's in `declarations/tasks/`, else a mounted held-out task's. */
export function taskDir(taskId: string): string {
  const pub = join(projectRoot(), "declarations", "tasks", taskId);
  const mount = heldOutActive() ? heldOutMount() : null;
  return !mount || existsSync(pub) ? pub : join(mount, taskId);
}

/** The script the entry command runs (`src/main.ts`). */
export function entryScript(task: Task): string {
  const script = task.entry.command.find((part, i) => i > 0 && /\.[cm]?[jt]s$/.test(part));
  if (!script) throw new Error(`task ${task.id}: entry command names no script`);
  return script;
}

const SKIP = new Set(["node_modules", ".git", "output"]);

/**
 * The starter's folders of customer materials (the sheets and files a ticket hands over). They are
 * the task's, not the connector's: a graded connector always reads the task's own copies.
 */
const MATERIAL_FOLDERS = ["input", "data"] as const;

/**
 * Copies a connector folder into a fresh workspace under `parent` (default: the system's temporary
 * folder). With `starter` (the task's starter folder), the connector's own material folders are left
 * behind and the starter's are copied in: an edited, deleted or linked-away sheet is graded as handed over.
 */
export function copyWorkspace(source: string, parent = tmpdir(), starter?: string): string {
  const dir = mkdtempSync(join(parent, "wb-ws-"));
  const materials = new Set<string>(starter ? MATERIAL_FOLDERS.map((f) => join(source, f)) : []);
  cpSync(source, dir, { recursive: true, verbatimSymlinks: true, filter: (src) => src === source || (!SKIP.has(src.split(/[\\/]/).pop()!) && !materials.has(src)) });
  if (starter) for (const f of MATERIAL_FOLDERS) if (existsSync(join(starter, f))) cpSync(join(starter, f), join(dir, f), { recursive: true });
  return dir;
}

/** A folder holding a probe's connector: the starter, with a solution overlaid or the entry stubbed. */
export function probeSource(task: Task, probe: Probe): string {
  const base = join(taskDir(task.id), "repo");
  if (probe === "empty") return base;
  const dir = mkdtempSync(join(tmpdir(), `wb-${probe}-`));
  cpSync(base, dir, { recursive: true });
  if (probe === "stub") writeFileSync(join(dir, entryScript(task)), "process.exit(0);\n");
  else {
    const overlay = join(taskDir(task.id), "solutions", probe);
    if (!existsSync(overlay)) throw new Error(`task ${task.id} has no solutions/${probe}`);
    cpSync(overlay, dir, { recursive: true });
  }
  return dir;
}

/** Whether a task has a `solutions/alt/` overlay: another defensible approach the ticket allows. */
export function hasAlt(taskId: string): boolean {
  return existsSync(join(taskDir(taskId), "solutions", "alt"));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
