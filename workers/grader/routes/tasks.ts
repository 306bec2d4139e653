import { TASKS } from "../../../declarations/tasks/index.ts";
import type { GraderContext } from "../context.ts";
import { TICKETS } from "../tickets.generated.ts";

/** Whether participants may see a task and create its worlds: it is authored (gold has a manifest) and not held out. */
export function isPublicTask(id: string): boolean {
  return Object.hasOwn(TASKS, id) && TASKS[id].gold !== null && !TASKS[id].heldOut;
}

/** `GET /v1/tasks`: the public tasks, with their tickets; nothing of their judges, fixtures or gold. */
export function listTasks(c: GraderContext): Response {
  const tasks = Object.values(TASKS)
    .filter((e) => isPublicTask(e.task.id))
    .map(({ task }) => ({
      id: task.id,
      title: task.title,
      kind: task.kind,
      vendors: [...new Set(Object.values(task.roles).map((r) => r.vendor))].sort(),
      docsProfile: task.docsProfile,
      surfaces: task.surfaces,
      ticket: TICKETS[task.id] ?? "",
    }));
  return c.json({ tasks });
}
