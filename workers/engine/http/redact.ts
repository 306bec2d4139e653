import { authScheme } from "../../../mechanics/auth/index.ts";
import type { HeaderReader } from "../../../mechanics/kit/request-headers.ts";
import type { Vendor } from "../../../declarations/schema/vendor.ts";

const ALWAYS_SECRET = new Set(["authorization", "cookie", "proxy-authorization", "set-cookie"]);
export const REDACTED = "[redacted]";

/** Header names whose values are credentials for this vendor. */
export function secretHeaderNames(vendor: Vendor): Set<string> {
  const names = new Set(ALWAYS_SECRET);
  if (vendor.auth.legacy) names.add(vendor.auth.legacy.name.toLowerCase());
  for (const p of vendor.auth.present) for (const name of authScheme(p).secretHeaders(p)) names.add(name.toLowerCase());
  return names;
}

/** Lower-cased headers with secret values replaced, for the request log. */
export function redactHeaders(headers: HeaderReader, secretNames: Set<string>, secretValues: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    const leaks = secretValues.some((s) => s.length >= 8 && value.includes(s));
    out[lower] = secretNames.has(lower) || leaks ? REDACTED : value;
  });
  return out;
}
