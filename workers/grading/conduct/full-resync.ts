import { soft, type ConductContext, type ConductResult } from "./context.ts";

/** Soft: once a list was read incrementally, it is not crawled again in full. */
export function noFullResync(ctx: ConductContext): ConductResult {
  const inc = ctx.vendor.incremental;
  if (!inc) return null;
  const incrementalPaths = new Set(ctx.vendor.resources.filter((r) => r.incremental && r.list && !r.parent).map((r) => r.list!));
  const lists = ctx.requests.filter((r) => r.method === "GET" && incrementalPaths.has(r.path) && r.status < 400);
  const firstIncremental = lists.find((r) => r.query[inc.param] !== undefined);
  if (!firstIncremental) return null;
  const full = lists.find((r) => r.seq > firstIncremental.seq && r.query[inc.param] === undefined);
  return soft("no_full_resync_after_incremental", !full, full ? `request #${full.seq} listed ${full.path} without ${inc.param} after an incremental read` : "incremental reads stayed incremental");
}
