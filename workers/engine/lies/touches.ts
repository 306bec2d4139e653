import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { liesTouching, type ServedFacts } from "../../../mechanics/lies/index.ts";
import type { RouteAction } from "../routing/route-table.ts";

/** What the engine knows about a served request, as the lie kinds read it. */
export function servedFacts(vendor: Vendor, action: RouteAction | null, status: number, authOutcome: string): ServedFacts {
  const facts: ServedFacts = { route: action?.kind ?? null, status, authOutcome };
  if (action?.kind === "list" || action?.kind === "get") facts.resource = action.resource.name;
  if (action?.kind === "write" || action?.kind === "upload") facts.resource = action.write.entity;
  if (action?.kind === "list") facts.numberedPages = "firstPage" in (action.resource.paging ?? vendor.paging);
  if (action?.kind === "mint") facts.mintIssues = action.mint.issues;
  return facts;
}

/** Ids of the declared lies a served request touched, in declaration order. */
export function liesTouched(vendor: Vendor, action: RouteAction | null, status: number, authOutcome: string): string[] {
  return liesTouching(vendor.lies, servedFacts(vendor, action, status, authOutcome));
}
