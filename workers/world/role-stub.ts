/**
 * @module role-stub
 * How a (world, role) pair names its Durable Object: one object per pair,
 * addressed by name, from the farm and from the grader alike.
 */
import type { WorldObject } from "./world-object.ts";

/** Stub of a role's Durable Object. */
export function roleStub(env: { WORLD: DurableObjectNamespace<WorldObject> }, world: string, role: string) {
  return env.WORLD.get(env.WORLD.idFromName(`${world}/${role}`));
}
