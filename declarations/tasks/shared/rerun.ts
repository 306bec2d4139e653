/**
 * @module shared/rerun
 * Judging a rerun of a write job: it may create what the first run left out,
 * and nothing else.
 */
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { CheckBasis, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { fewIds } from "./judging.ts";

/** What the rerun check is called and rests on, and what the details call the first run. */
export interface RerunCheck {
  name: string;
  basis: CheckBasis;
  /** `first attempt`, `first run`. */
  firstRun: string;
  /** The vendor's name and what the rerun may create (`StaffLine`, `notes`), for the details. */
  vendor: string;
  records: string;
}

/**
 * Records created between `first` (after the first run) and `final` (after the
 * rerun): each `entity` record that carries one of `missing` (rows the first
 * run should have written and did not) takes that row off the list; every other
 * new record is extra.
 */
export function rerunCreations<T>(first: Snapshot, final: Snapshot, missing: readonly T[], carries: (r: SnapshotRecord, row: T) => boolean, entity: string): { made: number; extra: string[] } {
  const open = [...missing];
  const extra: string[] = [];
  let made = 0;
  for (const [name, rows] of Object.entries(final.entities)) {
    const had = new Set((first.entities[name] ?? []).map((r) => r.id));
    for (const r of rows) {
      if (had.has(r.id)) continue;
      made += 1;
      const i = name === entity ? open.findIndex((row) => carries(r, row)) : -1;
      if (i >= 0) open.splice(i, 1);
      else extra.push(`${name} ${r.id}`);
    }
  }
  return { made, extra };
}

/**
 * The mandatory l3 rerun check (2/0): the rerun created nothing but records
 * carrying rows the first run left out (see `rerunCreations`).
 */
export function judgeRerun<T>(c: CheckRecorder, check: RerunCheck, first: Snapshot, final: Snapshot, missing: readonly T[], carries: (r: SnapshotRecord, row: T) => boolean, entity: string): void {
  const { made, extra } = rerunCreations(first, final, missing, carries, entity);
  c.check(check.name, !extra.length, {
    basis: check.basis,
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: extra.length
      ? `the rerun created ${extra.length} records the ${check.firstRun} had already written or ${check.vendor} should not hold (${fewIds(extra)})`
      : made
        ? `the rerun created ${made} ${check.records}, each one the ${check.firstRun} had left out`
        : "the rerun created nothing",
  });
}
