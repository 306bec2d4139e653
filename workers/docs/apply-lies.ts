import type { Lie } from "../../declarations/schema/lies.ts";
import type { Paging } from "../../declarations/schema/pagination.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";
import { pagingStyle } from "../../mechanics/paging/index.ts";
import type { DocModel, DocResource } from "./model.ts";

function renameParamInPaging(p: Paging, from: string, to: string): void {
  pagingStyle(p).renameParam(p, from, to);
}

function targets(m: DocModel, resource: string | undefined): DocResource[] {
  return m.resources.filter((r) => !resource || r.name === resource);
}

function plausibleExample(type: string, timeMs: number): unknown {
  switch (type) {
    case "integer":
      return 0;
    case "boolean":
      return false;
    case "timestamp":
      return timeMs;
    default:
      return "";
  }
}

/** Changes the model so it says what one lie says. */
function tell(m: DocModel, lie: Lie): void {
  switch (lie.kind) {
    case "param-name":
      if (!lie.resource) {
        renameParamInPaging(m.paging, lie.param, lie.says);
        if (m.incremental?.param === lie.param) m.incremental.param = lie.says;
      }
      for (const r of targets(m, lie.resource)) {
        if (!r.list) continue;
        renameParamInPaging(r.list.paging, lie.param, lie.says);
        for (const p of r.list.params) if (p.name === lie.param) p.name = lie.says;
        for (const f of r.fields) if (f.onlyWith?.param === lie.param) f.onlyWith.param = lie.says;
      }
      return;
    case "header-name":
      for (const p of m.present) {
        if (p.kind === "header" && p.name.toLowerCase() === lie.header.toLowerCase()) p.name = lie.says;
        if (p.kind === "hmac" && p.signatureHeader.toLowerCase() === lie.header.toLowerCase()) p.signatureHeader = lie.says;
        if (p.kind === "hmac" && p.timestampHeader.toLowerCase() === lie.header.toLowerCase()) p.timestampHeader = lie.says;
      }
      return;
    case "page-base":
      for (const p of [m.paging, ...m.resources.map((r) => r.list?.paging)]) if (p && "firstPage" in p) p.firstPage = lie.says;
      return;
    case "time-format":
      m.timeFormat = lie.says;
      return;
    case "retry-after":
      if (m.rateLimit) m.rateLimit.retryAfter = lie.says;
      return;
    case "phantom-field":
      for (const r of targets(m, lie.resource)) {
        const someTime = r.fields.find((f) => f.type === "timestamp");
        const timeMs = Number(someTime ? (r.examples[0]?.data[someTime.name] ?? 0) : 0);
        r.fields.push({ name: lie.field, type: lie.type, description: lie.description, nullable: false, phantomExample: plausibleExample(lie.type, timeMs) });
      }
      return;
    case "phantom-flag":
      for (const r of targets(m, lie.resource)) r.list?.params.push({ name: lie.param, role: "flag", value: "true", description: lie.description });
      return;
    case "omitted-flag":
      for (const r of targets(m, lie.resource)) {
        if (r.list) r.list.params = r.list.params.filter((p) => p.name !== lie.param);
        for (const f of r.fields) if (f.onlyWith?.param === lie.param) delete f.onlyWith;
      }
      return;
    case "token-expiry":
      for (const mint of m.mints) {
        if (mint.issues !== lie.token) continue;
        if (mint.kind === "session_exchange") mint.expiry = lie.says;
        if (mint.kind === "client_credentials" && mint.refresh) mint.refresh.expiry = lie.says;
      }
      return;
    case "page-size-cap":
      for (const p of [lie.resource ? undefined : m.paging, ...targets(m, lie.resource).map((r) => r.list?.paging)]) if (p) p.maxLimit = lie.says;
      return;
    case "rate-window":
      if (m.rateLimit) Object.assign(m.rateLimit, lie.says);
      return;
    case "signature-recipe":
      for (const p of m.present) if (p.kind === "hmac") Object.assign(p, { parts: lie.says.parts, separator: lie.says.separator });
      return;
    case "error-shape":
      m.errors = { ...m.errors, wrap: lie.says.wrap, codeField: lie.says.codeField, messageField: lie.says.messageField };
      return;
    case "delete-semantics":
      m.deletes =
        lie.says.mode === "tombstones"
          ? { mode: "tombstones", path: lie.says.path, entityField: "entity", deletedAtField: "deleted_at", incremental: true }
          : lie.says.mode === "flag"
            ? { mode: "flag", field: lie.says.field }
            : { mode: lie.says.mode };
      return;
  }
}

/** The model a profile shows: `true` as is, `stale` with every lie told, `sparse` with the lies and no examples. */
export function modelForProfile(truthful: DocModel, lies: readonly Lie[], profile: DocsProfile): DocModel {
  const m = structuredClone(truthful);
  m.profile = profile;
  if (profile === "true") return m;
  for (const lie of lies) {
    tell(m, lie);
    m.lies.push(lie);
  }
  const last = Date.parse(m.changelog.at(-1)!.date);
  m.changelog = [...m.changelog, ...lies.map((lie, i) => ({ version: `2.${i + 1}`, date: new Date(last + (i + 1) * 41 * 86_400_000).toISOString().slice(0, 10), text: lie.changelog }))];
  if (profile === "sparse") for (const r of m.resources) r.examples = [];
  return m;
}
