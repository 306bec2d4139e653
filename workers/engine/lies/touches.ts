import type { Lie } from "../../../declarations/schema/lies.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { RouteAction } from "../routing/route-table.ts";

/** What the engine knows about a served request when it tags lies. */
export interface ServedFacts {
  action: RouteAction | null;
  status: number;
  authOutcome: string;
}

function resourceOf(action: RouteAction | null): string | undefined {
  return action && (action.kind === "list" || action.kind === "get") ? action.resource.name : action?.kind === "write" ? action.write.entity : undefined;
}

/** Whether serving this request exercised the behaviour a lie misdescribes. */
function touches(vendor: Vendor, lie: Lie, f: ServedFacts): boolean {
  const a = f.action;
  const isList = a?.kind === "list";
  const isRead = isList || a?.kind === "get" || a?.kind === "feed";
  const inScope = (resource?: string) => !resource || resourceOf(a) === resource;
  switch (lie.kind) {
    case "param-name":
    case "page-size-cap":
      return isList && inScope(lie.resource);
    case "phantom-flag":
      return isList && inScope(lie.resource);
    case "phantom-field":
    case "omitted-flag":
      return (a?.kind === "list" || a?.kind === "get") && inScope(lie.resource);
    case "page-base":
      return a?.kind === "list" && "firstPage" in (a.resource.paging ?? vendor.paging);
    case "time-format":
      return isRead || a?.kind === "write";
    case "retry-after":
    case "rate-window":
      return f.status === 429;
    case "header-name":
    case "signature-recipe":
      return a !== null && a.kind !== "mint";
    case "token-expiry":
      return (a?.kind === "mint" && a.mint.issues === lie.token) || f.authOutcome === "expired";
    case "error-shape":
      return f.status >= 400 && a?.kind !== "mint";
    case "delete-semantics":
      return isRead;
  }
}

/** Ids of the declared lies a served request touched, in declaration order. */
export function liesTouched(vendor: Vendor, facts: ServedFacts): string[] {
  return vendor.lies.filter((lie) => touches(vendor, lie, facts)).map((lie) => lie.id);
}
