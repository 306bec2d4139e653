/**
 * @module id-numbers
 * Which ids an entity's sequence numbers: int ids count from their `start`,
 * prefixed ids from 1 behind their prefix; ULIDs are not numbered. A tenant
 * regeneration (`regenerate` mutation) restarts the numbering below the first
 * number, so the check and the data generator agree on where that is.
 */

/** The id declaration of a resource, as far as numbering goes. */
export interface IdNumbering {
  format: string;
  start?: number;
  prefix?: string;
  width?: number;
}

/** The first number an entity's id sequence issues, or null when its ids are not numbered. */
export function firstIdNumber(id: IdNumbering): number | null {
  if (id.format === "int") return id.start ?? 1;
  if (id.format === "prefixed") return 1;
  return null;
}

/** The id numbered `n` in an entity's id format (int or prefixed). */
export function numberedId(id: IdNumbering, n: number): string {
  if (id.format === "prefixed") return `${id.prefix ?? ""}${String(n).padStart(id.width ?? 1, "0")}`;
  return String(n);
}

/**
 * Why a regeneration numbered `restartAt..restartAt+count-1` is refused, or
 * null: the ids must be numbered, the range must stay below the first number
 * the sequence issues (so it is lower than every id issued so far, seeded or
 * created, at any scale), and it must not overlap an earlier regeneration's.
 */
export function regenerationProblem(entity: string, id: IdNumbering, restartAt: number, count: number, earlier: readonly [number, number][]): string | null {
  const first = firstIdNumber(id);
  if (first === null) return `"${entity}" ids are not numbered (${id.format}): a regeneration needs int or prefixed ids`;
  const last = restartAt + count - 1;
  if (last >= first) return `ids ${restartAt}..${last} would collide with the "${entity}" ids issued from ${first} up: restartAt + count must be at most ${first}`;
  const clash = earlier.find(([lo, hi]) => restartAt <= hi && last >= lo);
  if (clash) return `ids ${restartAt}..${last} would collide with the ids ${clash[0]}..${clash[1]} of an earlier regeneration of "${entity}"`;
  return null;
}
