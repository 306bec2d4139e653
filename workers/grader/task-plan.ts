/**
 * @module task-plan
 * What the farm needs to seed a task's world, and nothing more: the judges,
 * gold manifests and fixtures stay in the grader.
 */
import { findTask } from "../../declarations/tasks/index.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";

/** A task's world plan. */
export interface TaskPlan {
  task: string;
  /** The task's own seed. */
  seed: number;
  roles: Record<string, { vendor: string; checkpoint: number; scale: number }>;
  docsProfile: DocsProfile;
}

/** The plan of a task, or null when there is no such task. */
export function taskPlan(id: string): TaskPlan | null {
  const entry = findTask(id);
  if (!entry) return null;
  const t = entry.task;
  return { task: t.id, seed: t.seed, roles: t.roles, docsProfile: t.docsProfile };
}
