import type { Task } from "../schema/task.ts";
import type { GoldManifest } from "../../workers/grading/types.ts";
import task0001 from "./task-0001/task.ts";
import gold0001 from "./task-0001/gold-manifest.json" with { type: "json" };

/** A task and the checks gold earns on it (null until `wirebench validate --write-gold` has run). */
export interface TaskEntry {
  task: Task;
  gold: GoldManifest | null;
}

const entries: TaskEntry[] = [{ task: task0001, gold: gold0001 as GoldManifest | null }];

/** Every task, by id. Adding a task means adding its folder and listing it here. */
export const TASKS: Readonly<Record<string, TaskEntry>> = Object.freeze(Object.fromEntries(entries.map((e) => [e.task.id, e])));

export function findTask(id: string): TaskEntry | undefined {
  return Object.hasOwn(TASKS, id) ? TASKS[id] : undefined;
}
