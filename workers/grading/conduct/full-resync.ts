import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { deleteStyle } from "../../../mechanics/deletes/index.ts";
import { soft, type ConductContext, type ConductResult } from "./context.ts";

/**
 * Soft: once a list was read incrementally, it is not crawled again in full.
 *
 * One exception, where the vendor leaves no other way to see a removal (its
 * lists drop deleted records and it has no deletions feed): a run that reads a
 * list incrementally may also sweep it once, one pass with no page read twice,
 * to learn which records still exist. The ticket's "removals included" then
 * needs that pass; a second pass, or an unfiltered crawl in a run that never
 * read the list incrementally, is still a full re-sync.
 */
export function noFullResync(ctx: ConductContext): ConductResult {
  const inc = ctx.vendor.incremental;
  if (!inc) return null;
  const incrementalPaths = new Set(ctx.vendor.resources.filter((r) => r.incremental && r.list && !r.parent).map((r) => r.list!));
  const lists = ctx.requests.filter((r) => r.method === "GET" && incrementalPaths.has(r.path) && r.status < 400);
  const firstIncremental = lists.find((r) => r.query[inc.param] !== undefined);
  if (!firstIncremental) return null;
  const style = deleteStyle(ctx.vendor.deletes);
  const removalsOnlyByAbsence = !style.listsDeleted && !style.feed;
  const sweeps = removalsOnlyByAbsence ? singlePassSweeps(lists, inc.param) : new Set<RequestLogEntry>();
  const full = lists.find((r) => r.seq > firstIncremental.seq && r.query[inc.param] === undefined && !sweeps.has(r));
  return soft(
    "no_full_resync_after_incremental",
    !full,
    full
      ? `request #${full.seq} listed ${full.path} without ${inc.param} after an incremental read${removalsOnlyByAbsence ? " (beyond one sweep beside an incremental read of that run)" : ""}`
      : sweeps.size
        ? "incremental reads stayed incremental (beside one id sweep per run: removals show only by absence)"
        : "incremental reads stayed incremental",
  );
}

/**
 * Unfiltered reads that form one sweep: in an epoch that also read the same
 * list with the incremental filter, the unfiltered reads of that list when no
 * page of them was read twice (a second pass repeats its first page).
 */
function singlePassSweeps(lists: RequestLogEntry[], param: string): Set<RequestLogEntry> {
  const groups = new Map<string, RequestLogEntry[]>();
  for (const r of lists) {
    const key = `${r.epoch} ${r.path}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out = new Set<RequestLogEntry>();
  for (const reads of groups.values()) {
    if (!reads.some((r) => r.query[param] !== undefined)) continue;
    const unfiltered = reads.filter((r) => r.query[param] === undefined);
    const pages = new Set(unfiltered.map((r) => JSON.stringify(Object.entries(r.query).sort())));
    if (pages.size === unfiltered.length) for (const r of unfiltered) out.add(r);
  }
  return out;
}
