import type { Lie } from "../../declarations/schema/lies.ts";
import type { Paging } from "../../declarations/schema/pagination.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";
import { tellLie } from "../../mechanics/lies/index.ts";
import type { DocModel, DocResource } from "./model.ts";

/** The model a profile shows: `true` as is, `stale` with every lie told, `sparse` with the lies and no examples. */
export function modelForProfile(truthful: DocModel, lies: readonly Lie[], profile: DocsProfile): DocModel {
  const m = structuredClone(truthful);
  m.profile = profile;
  if (profile === "true") return m;
  for (const lie of lies) {
    tellLie(m, lie);
    m.lies.push(lie);
  }
  const last = Date.parse(m.changelog.at(-1)!.date);
  m.changelog = [...m.changelog, ...lies.map((lie, i) => ({ version: `2.${i + 1}`, date: new Date(last + (i + 1) * 41 * 86_400_000).toISOString().slice(0, 10), text: lie.changelog }))];
  if (profile === "sparse") for (const r of m.resources) r.examples = [];
  return m;
}
