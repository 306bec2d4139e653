/**
 * @module shared/mirror-lag
 * A mirror read after a run of events, against the state the events lead to:
 * which records it still holds at the version before them (or lacks, when
 * they are new), so a task can allow for an event that never came, and
 * whether everything else matches.
 */
import { compareRows, type MirrorRow } from "./judging.ts";

/** One entity of the mirror: the rows it holds, the rows it should hold, and those it held before the events. */
export interface LagInput {
  rows: MirrorRow[];
  want: Map<string, MirrorRow>;
  old: Map<string, MirrorRow>;
}

/**
 * The records of each entity the mirror holds at their old version (or lacks,
 * when they are new since `old`), by id, and what is wrong with the rest
 * (`<entity>s: <compareRows detail>`), in the entities' order.
 */
export function recordsBehind<E extends string>(entities: readonly E[], input: (entity: E) => LagInput): { behind: Map<string, E>; problems: string[] } {
  const behind = new Map<string, E>();
  const problems: string[] = [];
  for (const entity of entities) {
    const { rows, want, old } = input(entity);
    const have = new Map(rows.map((r) => [String(r.source_id), r]));
    for (const [id, row] of want) {
      if (compareRows(have.has(id) ? [have.get(id)!] : [], new Map([[id, row]])).ok) continue;
      const stale = have.has(id) ? old.has(id) && compareRows([have.get(id)!], new Map([[id, old.get(id)!]])).ok : !old.has(id);
      if (stale) behind.set(id, entity);
    }
    const cmp = compareRows(
      rows.filter((r) => !behind.has(String(r.source_id))),
      new Map([...want].filter(([id]) => !behind.has(id))),
    );
    if (!cmp.ok) problems.push(`${entity}s: ${cmp.detail}`);
  }
  return { behind, problems };
}
