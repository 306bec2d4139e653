import { deleteFlagField } from "../../../mechanics/deletes/index.ts";
export { withArticle } from "../../../mechanics/kit/words.ts";
import type { AuthDocsContext } from "../../../mechanics/auth/define.ts";
import { authScheme } from "../../../mechanics/auth/index.ts";
import type { TimeFormat } from "../../../declarations/schema/vendor.ts";
import { timeFormat } from "../../../mechanics/time-formats/index.ts";
import { formatTime, recordZone } from "../../engine/data/clock.ts";
import type { DocModel, DocResource } from "../model.ts";

/** A Markdown table. Cells are escaped for pipes. */
export function table(head: string[], rows: (string | number)[][]): string {
  const esc = (c: string | number) => String(c).replace(/\|/g, "\\|").replace(/\n/g, " ");
  return [`| ${head.map(esc).join(" | ")} |`, `| ${head.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(esc).join(" | ")} |`)].join("\n");
}

export function code(lang: string, body: string): string {
  return "```" + lang + "\n" + body + "\n```";
}

/** How a timestamp format reads in prose. */
export function describeTimeFormat(f: TimeFormat, zone: DocModel["timeZone"] = {}): string {
  return timeFormat(f).docs.describe(zone);
}

/** Environment variable holding a credential, as the quick start shows it. */
export function envName(m: DocModel, credential: string): string {
  return `${m.vendor.envPrefix}_${credential.toUpperCase()}`;
}

/** The curl header flags a data request needs, with placeholders. */
export function curlAuthFlags(m: DocModel): string[] {
  return m.present.map((p) => authScheme(p).docs.curl(p, authDocsContext(m)));
}

/** What auth schemes and mints are told when they render docs. */
export function authDocsContext(m: DocModel): AuthDocsContext {
  return { envName: (credential) => envName(m, credential), baseUrl: m.baseUrl };
}

/** One example record, as the documentation claims the vendor serves it. */
export function exampleRecord(m: DocModel, r: DocResource, ex: DocResource["examples"][number]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of r.fields) {
    if (f.phantomExample !== undefined) {
      out[f.name] = f.type === "timestamp" ? formatTime(Number(f.phantomExample), m.timeFormat, ex.id, recordZone(m.timeZone, ex.data)) : f.phantomExample;
      continue;
    }
    const raw = f.name === r.idField ? ex.id : ex.data[f.name];
    if (f.type === "timestamp" && typeof raw === "number") out[f.name] = formatTime(raw, m.timeFormat, ex.id, recordZone(m.timeZone, ex.data));
    else if ((f.name === r.idField && r.idFormat.format === "int") || (f.refersTo && m.resources.find((x) => x.name === f.refersTo)?.idFormat.format === "int"))
      out[f.name] = raw === null ? null : Number(raw);
    else out[f.name] = raw ?? null;
  }
  const flag = deleteFlagField(m.deletes);
  if (flag) out[flag] = ex.deleted;
  for (const e of r.embeds) {
    const child = m.resources.find((x) => x.name === e.entity);
    const all = ex.children?.[e.field] ?? [];
    if (!child) continue;
    out[e.field] = all.slice(0, e.limit ?? all.length).map((c) => exampleRecord(m, child, c));
    if (e.flag) out[e.flag] = e.limit !== undefined && all.length > e.limit;
  }
  return out;
}

/** Link from one page to another, relative to the docs root. */
export function link(text: string, slug: string): string {
  return `[${text}](${slug}.md)`;
}
