/**
 * @module lies/vendor-facts
 * What a vendor really honours, for the checks that refuse lies which would
 * not be wrong.
 */
import { authScheme } from "../auth/index.ts";
import { pagingParamNames } from "../paging/index.ts";
import type { VendorForLies } from "./define.ts";

/** Every query parameter the vendor honours, overall or for one resource. */
export function realParams(v: VendorForLies, resource?: string): Set<string> {
  const params = new Set<string>();
  const addPaging = (p: { style: string }) => {
    for (const name of pagingParamNames(p)) params.add(name);
  };
  for (const r of v.resources) {
    if (resource && r.name !== resource) continue;
    addPaging(r.paging ?? v.paging);
    r.fields.forEach((f) => f.onlyWith && params.add(f.onlyWith.param));
  }
  if (!resource) addPaging(v.paging);
  if (v.incremental) params.add(v.incremental.param);
  return params;
}

/** Lower-cased names of the headers the vendor's auth requires. */
export function authHeaders(v: VendorForLies): string[] {
  return v.auth.present.flatMap((p) => authScheme(p).headerNames(p as never)).map((h) => h.toLowerCase());
}
