import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { pagingParams, pagingStyle } from "../../../mechanics/paging/index.ts";
import { soft, type ConductContext, type ConductResult } from "./context.ts";

function positionParam(vendor: Vendor, path: string): string | null {
  const r = vendor.resources.find((x) => x.list === path);
  if (!r) return null;
  return pagingParams(r.paging ?? vendor.paging).position;
}

function atStart(vendor: Vendor, path: string, query: Record<string, string>): boolean {
  const r = vendor.resources.find((x) => x.list === path)!;
  const p = r.paging ?? vendor.paging;
  const v = query[positionParam(vendor, path)!];
  if (v === undefined || v === "") return true;
  return pagingStyle(p).isStart(p, v);
}

/** Soft: after a 5xx in the middle of a crawl, the client retries that page rather than starting over. */
export function resumeAfter5xx(ctx: ConductContext): ConductResult {
  const failures = ctx.requests.filter((r) => r.status >= 500 && r.method === "GET" && positionParam(ctx.vendor, r.path));
  if (!failures.length) return null;
  for (const f of failures) {
    if (atStart(ctx.vendor, f.path, f.query)) continue;
    const next = ctx.requests.find((x) => x.seq > f.seq && x.method === "GET" && x.path === f.path);
    if (next && atStart(ctx.vendor, next.path, next.query)) return soft("resume_not_restart_after_5xx", false, `request #${next.seq} restarted ${f.path} from the first page after a ${f.status}`);
  }
  return soft("resume_not_restart_after_5xx", true, `${failures.length} server errors, crawls resumed`);
}
