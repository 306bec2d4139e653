/**
 * @module task-mutants
 * A task's mutants: the shared generators' over gold's tree plus the task's
 * own `mutants.ts`, minus the shared ones the task declares equivalent.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Mutant, TaskMutantsSchema } from "../../../declarations/tasks/shared/mutant.ts";
import type { Task } from "../../../declarations/schema/task.ts";
import { entryScript, probeSource, removeDir, taskDir } from "../workspace.ts";
import { readTree } from "./apply.ts";
import { sharedMutants } from "./generators.ts";

export interface PlannedMutant extends Mutant {
  shared: boolean;
  /** Set when the task declares this shared mutant equivalent to gold: the reason; it is reported, not graded. */
  equivalent: string | null;
}

/** The task's own mutants file, or an empty list when it has none. */
export async function ownMutants(taskId: string) {
  const file = join(taskDir(taskId), "mutants.ts");
  if (!existsSync(file)) return { mutants: [], equivalent: {} as Record<string, string> };
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  const parsed = TaskMutantsSchema.safeParse(mod.default);
  if (!parsed.success) throw new Error(`${taskId}/mutants.ts: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return { mutants: parsed.data.mutants, equivalent: parsed.data.equivalent ?? {} };
}

/** Every mutant of a task, shared first, each id once. */
export async function planMutants(task: Task): Promise<PlannedMutant[]> {
  const gold = probeSource(task, "gold");
  let files: Map<string, string>;
  try {
    files = readTree(gold);
  } finally {
    removeDir(gold);
  }
  const own = await ownMutants(task.id);
  const shared = sharedMutants(files, entryScript(task));
  for (const id of Object.keys(own.equivalent))
    if (!shared.some((m) => m.id === id)) throw new Error(`${task.id}/mutants.ts declares ${id} equivalent, but no shared generator produces it for this task`);
  const planned: PlannedMutant[] = [...shared.map((m) => ({ ...m, shared: true, equivalent: own.equivalent[m.id] ?? null })), ...own.mutants.map((m) => ({ ...m, shared: false, equivalent: null }))];
  const seen = new Set<string>();
  for (const m of planned) {
    if (seen.has(m.id)) throw new Error(`${task.id}: mutant id ${m.id} is used twice`);
    seen.add(m.id);
  }
  return planned;
}
