/**
 * @module lies/window-span
 * The docs give a windowed list a longer longest window than it serves: a
 * client that asks for windows of the documented length gets each one cut
 * short (the answer says so) and misses the rest unless it reads where the
 * served window ended.
 */
import { z } from "zod";
import { windowStyle } from "../windows/index.ts";
import { defineLie, inScope, lieCommon, targets } from "./define.ts";

const schema = z.object({
  kind: z.literal("window-span"),
  ...lieCommon,
  /** The windowed list's resource. */
  resource: z.string(),
  /** The longest window the docs state, in days. */
  says: z.number().int().positive(),
});

/** The declared window of a resource, if it has one (the lie checks read vendors structurally). */
function windowOf(r: { window?: unknown } | undefined): { style: string } | undefined {
  const w = r?.window as { style?: unknown } | undefined;
  return w && typeof w.style === "string" ? (w as { style: string }) : undefined;
}

export const windowSpan = defineLie({
  schema,
  problem(v, lie) {
    const w = windowOf(v.resources.find((r) => r.name === lie.resource) as { window?: unknown } | undefined);
    if (!w) return `"${lie.resource}" is not read in time windows`;
    return windowStyle(w).maxSpanDays(w as never) === lie.says ? "that is the real longest window" : null;
  },
  tell(m, lie) {
    for (const r of targets(m, lie.resource)) {
      const w = r.list?.window;
      if (w) w.declared = windowStyle(w.declared).withMaxSpanDays(w.declared as never, lie.says) as typeof w.declared;
    }
  },
  areas: { openapi: /^paths\..*\.(description|x-wirebench-window\.maxSpanDays)$/, pages: /^resource-/ },
  touches: (lie, f) => f.route === "list" && inScope(f, lie.resource),
});
