import type { z } from "zod";
import type { Lie } from "./lies.ts";
import { deleteFlagField } from "../../mechanics/deletes/index.ts";
import { pagingParams } from "../../mechanics/paging/index.ts";
import type { Paging } from "./pagination.ts";

/** The parts of a vendor the lie checks read (structural, to avoid an import cycle). */
interface VendorForLies {
  clock: { format: string };
  paging: Paging;
  auth: { mints: ({ kind: string; issues: string; expiry?: string; refresh?: { expiry: string } } & Record<string, unknown>)[]; present: ({ kind: string } & Record<string, unknown>)[] };
  resources: { name: string; list?: string; paging?: Paging; fields: { name: string; onlyWith?: { param: string } }[] }[];
  incremental?: { param: string };
  rateLimit?: { limit: number; cooldownS: number; retryAfter: string };
  errors: { wrap?: string; codeField: string; messageField: string };
  deletes: { mode: string; field?: string; path?: string };
  lies: Lie[];
}

function pagingParamNames(p: Paging): string[] {
  const { position, size } = pagingParams(p);
  return [position, size];
}

/** Every query parameter the vendor honours, overall or for one resource. */
function realParams(v: VendorForLies, resource?: string): Set<string> {
  const params = new Set<string>();
  for (const r of v.resources) {
    if (resource && r.name !== resource) continue;
    pagingParamNames(r.paging ?? v.paging).forEach((p) => params.add(p));
    r.fields.forEach((f) => f.onlyWith && params.add(f.onlyWith.param));
  }
  if (!resource) pagingParamNames(v.paging).forEach((p) => params.add(p));
  if (v.incremental) params.add(v.incremental.param);
  return params;
}

function authHeaders(v: VendorForLies): string[] {
  return v.auth.present.flatMap((p) => (p.kind === "header" ? [p.name as string] : p.kind === "hmac" ? [p.signatureHeader as string, p.timestampHeader as string] : [])).map((h) => h.toLowerCase());
}

/** Why a lie cannot be told about this vendor, or null when it can. */
function lieProblem(v: VendorForLies, lie: Lie): string | null {
  const resource = "resource" in lie && lie.resource ? v.resources.find((r) => r.name === lie.resource) : undefined;
  if ("resource" in lie && lie.resource && !resource) return `unknown resource "${lie.resource}"`;
  switch (lie.kind) {
    case "param-name": {
      const real = realParams(v, lie.resource);
      if (!real.has(lie.param)) return `"${lie.param}" is not a parameter the vendor honours`;
      if (real.has(lie.says) || lie.says === lie.param) return `"${lie.says}" is a real parameter, so the docs would not be wrong`;
      return null;
    }
    case "header-name": {
      const headers = authHeaders(v);
      if (!headers.includes(lie.header.toLowerCase())) return `"${lie.header}" is not an auth header of the vendor`;
      if (headers.includes(lie.says.toLowerCase())) return `"${lie.says}" is a real auth header`;
      return null;
    }
    case "page-base": {
      const paged = [v.paging, ...v.resources.map((r) => r.paging)].flatMap((p) => (p && "firstPage" in p ? [p] : []));
      if (!paged.length) return "the vendor has no numbered pages";
      return paged.every((p) => p.firstPage === lie.says) ? "pages really start there" : null;
    }
    case "time-format":
      return lie.says === v.clock.format ? "that is the real time format" : null;
    case "retry-after":
      if (!v.rateLimit) return "the vendor has no rate limit";
      return lie.says === v.rateLimit.retryAfter ? "that is the real Retry-After style" : null;
    case "phantom-field":
      if (resource!.fields.some((f) => f.name === lie.field) || deleteFlagField(v.deletes) === lie.field) return `"${lie.field}" really exists on ${lie.resource}`;
      return null;
    case "phantom-flag":
      if (!resource!.list) return `${lie.resource} has no list endpoint`;
      return realParams(v, lie.resource).has(lie.param) ? `"${lie.param}" really does something` : null;
    case "omitted-flag":
      return resource!.fields.some((f) => f.onlyWith?.param === lie.param) ? null : `no field of ${lie.resource} depends on "${lie.param}"`;
    case "token-expiry": {
      const mint = v.auth.mints.find((m) => m.issues === lie.token);
      const expiry = mint?.kind === "session_exchange" ? mint.expiry : mint?.refresh?.expiry;
      if (!expiry) return `no token "${lie.token}" with an expiry policy`;
      return expiry === lie.says ? "that is the real expiry policy" : null;
    }
    case "page-size-cap": {
      const paging = resource?.paging ?? v.paging;
      return paging.maxLimit === lie.says ? "that is the real cap" : null;
    }
    case "rate-window":
      if (!v.rateLimit) return "the vendor has no rate limit";
      return v.rateLimit.limit === lie.says.limit && v.rateLimit.cooldownS === lie.says.cooldownS ? "that is the real window" : null;
    case "signature-recipe": {
      const hmac = v.auth.present.find((p) => p.kind === "hmac");
      if (!hmac) return "the vendor does not sign requests";
      const same = JSON.stringify(hmac.parts) === JSON.stringify(lie.says.parts) && hmac.separator === lie.says.separator;
      return same ? "that is the real recipe" : null;
    }
    case "error-shape": {
      const e = v.errors;
      return (e.wrap ?? "") === (lie.says.wrap ?? "") && e.codeField === lie.says.codeField && e.messageField === lie.says.messageField ? "that is the real error shape" : null;
    }
    case "delete-semantics":
      return JSON.stringify({ ...v.deletes, ...lie.says }) === JSON.stringify(v.deletes) && v.deletes.mode === lie.says.mode ? "that is how deletes really work" : null;
  }
}

/** Rejects lies the engine could not make true in responses, and duplicate ids. */
export function checkLies(v: VendorForLies, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  v.lies.forEach((lie, i) => {
    if (seen.has(lie.id)) ctx.addIssue({ code: "custom", path: ["lies", i, "id"], message: `duplicate lie id "${lie.id}"` });
    seen.add(lie.id);
    const problem = lieProblem(v, lie);
    if (problem) ctx.addIssue({ code: "custom", path: ["lies", i], message: `lie "${lie.id}" (${lie.kind}) cannot be told: ${problem}` });
  });
}
