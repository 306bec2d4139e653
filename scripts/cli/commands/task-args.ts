/**
 * @module task-args
 * Arguments the validation rig's verbs share: the tasks named (all when none)
 * and `--jobs`.
 */
import { availableParallelism } from "node:os";
import { findTask, TASKS, type TaskEntry } from "../../../declarations/tasks/index.ts";
import { UsageError } from "../errors.ts";

/** The tasks `ids` name, in order, or every task when none is named; an unknown id is a usage error. */
export function tasksNamed(ids: string[]): TaskEntry[] {
  if (!ids.length) return Object.values(TASKS);
  return ids.map((id) => {
    const entry = findTask(id);
    if (!entry) throw new UsageError(`unknown task "${id}"`);
    return entry;
  });
}

/** Gradings at a time: `--jobs` (a positive integer), else twice the cores. */
export function jobsOf(jobs: string | undefined): number {
  if (jobs === undefined) return availableParallelism() * 2;
  if (!/^[1-9]\d*$/.test(jobs)) throw new UsageError(`--jobs must be a positive integer, got "${jobs}"`);
  return Number(jobs);
}
