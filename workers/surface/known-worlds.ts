/**
 * @module known-worlds
 * Which world ids are live, asked before a request reaches a Durable Object:
 * the runtime opens storage for every object it starts, so a request to a
 * made-up or ended world must be answered without starting one. Live ids are
 * remembered per isolate (bounded) with their expiry; others are looked up in
 * the archive of worlds.
 */
import { findWorld } from "../control/world-lookup.ts";
import type { Env } from "../env.ts";

/** Ids remembered per isolate; past this the oldest are forgotten (and looked up again when used). */
const REMEMBERED = 50_000;
/** World id -> expiry (ms). */
const known = new Map<string, number>();

/** Remembers a world that was just created. */
export function rememberWorld(id: string, expiresAtMs: number): void {
  if (known.size >= REMEMBERED) known.delete(known.keys().next().value!);
  known.set(id, expiresAtMs);
}

/** Forgets a world that has ended. */
export function forgetWorld(id: string): void {
  known.delete(id);
}

/**
 * Whether the world is live at `nowMs` (ms since the Unix epoch): the caller's
 * time, so this module reads no clock of its own.
 */
export async function worldExists(env: Env, id: string, nowMs: number): Promise<boolean> {
  const expiry = known.get(id);
  if (expiry !== undefined) {
    if (nowMs < expiry) return true;
    known.delete(id);
    return false;
  }
  const row = await findWorld(env, id);
  if (!row || row.endedAt !== null || (row.expiresAt !== null && row.expiresAt <= nowMs)) return false;
  rememberWorld(id, row.expiresAt ?? Number.MAX_SAFE_INTEGER);
  return true;
}
