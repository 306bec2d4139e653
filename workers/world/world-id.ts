/**
 * @module world-id
 * A world id names what the world serves: `r1-t0001-s7-<16 hex>` is release
 * r1, task-0001, seed 7; a bare vendor world has `v` for the task. A
 * re-skinned release carries its skin's tag (`r1x3f9a2c`). The random part
 * keeps ids unguessable.
 */

/** What an id says. */
export interface WorldName {
  release: string;
  /** `task-0001`, or null for a bare vendor world. */
  task: string | null;
  seed: number;
  random: string;
}

const PATTERN = /^(r\d{1,6}(?:x[0-9a-f]{6})?)-(t\d{4}|v)-s(\d{1,10})-([0-9a-f]{16})$/;

/** Whether a path segment can be a world id at all (checked before anything is looked up). */
export function isWorldId(id: string): boolean {
  return PATTERN.test(id);
}

export function formatWorldId(name: WorldName): string {
  const task = name.task === null ? "v" : `t${name.task.slice("task-".length)}`;
  return `${name.release}-${task}-s${name.seed}-${name.random}`;
}

export function parseWorldId(id: string): WorldName | null {
  const m = PATTERN.exec(id);
  if (!m) return null;
  return { release: m[1], task: m[2] === "v" ? null : `task-${m[2].slice(1)}`, seed: Number(m[3]), random: m[4] };
}

/** The world id in a reference: an id, a vendor URL (`…/w/<id>/<role>/…`) or a control-plane URL (`…/v1/worlds/<id>`). */
export function worldIdOf(reference: string): string | null {
  const ref = reference.trim();
  if (isWorldId(ref)) return ref;
  let path: string;
  try {
    path = new URL(ref).pathname;
  } catch {
    path = ref;
  }
  const m = /\/(?:w|v1\/worlds)\/([^/]+)/.exec(path);
  return m && isWorldId(m[1]) ? m[1] : null;
}
