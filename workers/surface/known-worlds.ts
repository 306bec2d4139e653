/**
 * @module known-worlds
 * Which world ids exist, asked before a request reaches a Durable Object: the
 * runtime opens storage for every object it starts, so a request to a made-up
 * id must be answered without starting one. Ids seen to exist are remembered
 * per isolate (bounded); others are looked up in the archive of worlds.
 */
import { findWorld } from "../control/world-lookup.ts";
import type { Env } from "../env.ts";

/** Ids remembered per isolate; past this the oldest are forgotten (and looked up again when used). */
const REMEMBERED = 50_000;
const known = new Map<string, true>();

/** Remembers a world that was just created. */
export function rememberWorld(id: string): void {
  if (known.size >= REMEMBERED) known.delete(known.keys().next().value!);
  known.set(id, true);
}

/** Whether the world exists. */
export async function worldExists(env: Env, id: string): Promise<boolean> {
  if (known.has(id)) return true;
  if (!(await findWorld(env, id))) return false;
  rememberWorld(id);
  return true;
}
