import type { Resource, Vendor } from "../../../declarations/schema/vendor.ts";
import { pagingParamNames } from "../../../mechanics/paging/index.ts";
import { windowStyle } from "../../../mechanics/windows/index.ts";
import type { QueryReader } from "../../../mechanics/kit/query-params.ts";

/**
 * RFC 7234-style `Warning` values for a read: query parameters the endpoint
 * ignores, and fields left out because their flag was not sent. This is how
 * a careful client can notice that documentation is wrong.
 */
export function readWarnings(vendor: Vendor, r: Resource, query: QueryReader, isList: boolean): string[] {
  const known = knownParams(vendor, r, isList);
  const warnings: string[] = [];
  const unknown = [...new Set(query.keys())].filter((k) => !known.has(k));
  if (unknown.length) warnings.push(`299 - "ignored unknown query parameter${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}"`);
  for (const f of r.fields) {
    if (f.onlyWith && query.get(f.onlyWith.param) !== f.onlyWith.value) warnings.push(`299 - "field ${f.name} omitted; send ${f.onlyWith.param}=${f.onlyWith.value} to include it"`);
  }
  return warnings;
}

/** The query parameters a resource's reads take, per resource declaration and kind of read (declarations do not change). */
const KNOWN = new WeakMap<Resource, { list?: Set<string>; get?: Set<string> }>();

function knownParams(vendor: Vendor, r: Resource, isList: boolean): Set<string> {
  let entry = KNOWN.get(r);
  if (!entry) KNOWN.set(r, (entry = {}));
  const kind = isList ? "list" : "get";
  let known = entry[kind];
  if (known) return known;
  known = new Set<string>(r.fields.flatMap((f) => (f.onlyWith ? [f.onlyWith.param] : [])));
  if (isList) {
    for (const name of pagingParamNames(r.paging ?? vendor.paging)) known.add(name);
    if (r.incremental && vendor.incremental) known.add(vendor.incremental.param);
    if (r.window) for (const name of Object.values(windowStyle(r.window).params(r.window as never))) known.add(name);
  }
  entry[kind] = known;
  return known;
}
