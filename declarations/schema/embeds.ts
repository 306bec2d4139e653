import { z } from "zod";

/**
 * Child records served inside each record of a resource, cut off after
 * `limit`: the array holds the first `limit` children in list order, `flag`
 * says whether there are more, and every child is at the child's own list
 * (`/<resource>/:parentId/<children>`). The child must be a subresource of
 * the embedding resource.
 */
export const Embed = z.object({
  /** Field of the record holding the array (`mb`). */
  field: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
  /** The child entity: a subresource whose parent is the embedding resource. */
  entity: z.string(),
  /** Most children the array holds; the rest are only at the child's list. */
  limit: z.number().int().positive(),
  /** Boolean field saying whether the record has more children than the array holds (`mb_truncated`). */
  flag: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/),
});
export type Embed = z.infer<typeof Embed>;

/** The parts of a resource the embed checks read (structural). */
interface ResourceShape {
  name: string;
  parent?: string;
  list?: string;
  fields: { name: string }[];
  embeds?: { field: string; entity: string; flag: string }[];
}

/** Checks one resource's embeds; paths are relative to the resource. */
export function checkEmbeds(r: ResourceShape, entities: Map<string, ResourceShape>, issue: (path: (string | number)[], message: string) => void): void {
  const taken = new Set(r.fields.map((f) => f.name));
  (r.embeds ?? []).forEach((e, i) => {
    const child = entities.get(e.entity);
    if (!child) return issue(["embeds", i, "entity"], `unknown entity "${e.entity}"`);
    if (child.parent !== r.name) issue(["embeds", i, "entity"], `"${e.entity}" is not a subresource of "${r.name}"`);
    else if (!child.list) issue(["embeds", i, "entity"], `"${e.entity}" has no list where every child can be read`);
    for (const [key, name] of [
      ["field", e.field],
      ["flag", e.flag],
    ] as const) {
      if (taken.has(name)) issue(["embeds", i, key], `"${r.name}" already has a field "${name}"`);
      taken.add(name);
    }
  });
}
