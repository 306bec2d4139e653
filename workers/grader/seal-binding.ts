/**
 * @module seal-binding
 * What binds a sealed run to the world it claims: the world's task and seed,
 * the task's scenarios (each at most once, in the task's order), and the
 * world's own recreate sequence (each role's epochs over the scenarios, in
 * order, are exactly the epochs its recreates opened, each used once).
 */
import type { Task } from "../../declarations/schema/task.ts";
import type { SealBody } from "./seal-body.ts";
import type { WorldRow } from "./world-registry.ts";

/** Why a body does not fit its world: an HTTP status and a message. */
export interface SealRefusal {
  status: 400 | 409;
  error: string;
}

/** The world's task and seed against the body's, when it repeats them. */
export function taskRefusal(world: WorldRow, body: SealBody): SealRefusal | null {
  if (world.task === null) return { status: 400, error: `world "${world.id}" is a bare vendor world; a run grades a task's world` };
  if (body.task !== undefined && body.task !== world.task) return { status: 409, error: `task: world "${world.id}" was created for ${world.task}, not ${body.task}` };
  if (body.seed !== undefined && body.seed !== world.seed) return { status: 409, error: `seed: world "${world.id}" was seeded with ${world.seed}, not ${body.seed}` };
  return null;
}

/** Scenario names: the task's own, each at most once, in the task's order. */
export function scenarioRefusal(task: Task, body: SealBody): SealRefusal | null {
  const order = task.scenarios.map((s) => s.name);
  let last = -1;
  for (const [i, s] of body.scenarios.entries()) {
    const at = order.indexOf(s.name);
    if (at < 0) return { status: 400, error: `scenarios[${i}].name: ${task.id} has no scenario "${s.name}" (scenarios: ${order.join(", ")})` };
    if (at <= last) return { status: 400, error: `scenarios[${i}].name: "${s.name}" is out of order or repeated (a run has each of ${order.join(", ")} at most once, in that order)` };
    last = at;
  }
  return null;
}

/**
 * Each role's epochs over the scenarios against the epochs its recreates
 * opened (1 to `opened[role]`): the same list, in order, so no epoch is
 * skipped, repeated, invented or borrowed from the seeding.
 */
export function epochRefusal(body: SealBody, opened: Record<string, number>): SealRefusal | null {
  for (const [role, count] of Object.entries(opened)) {
    const used = body.scenarios.flatMap((s) => s.epochs[role] ?? []);
    const want = Array.from({ length: count }, (_, i) => i + 1);
    if (used.length !== want.length || used.some((e, i) => e !== want[i])) {
      return {
        status: 400,
        error: `epochs: role "${role}" is given epochs [${used.join(", ")}] over the scenarios; its recreates opened [${want.join(", ")}], and a run uses each once, in order`,
      };
    }
  }
  return null;
}
