/**
 * @module incremental
 * The registry of incremental styles: the only list of them.
 */
import { type IncrementalStyle, incrementalStyleOf } from "./define.ts";
import { updatedSince } from "./updated-since.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const INCREMENTAL_STYLES = [updatedSince] as const;

const BY_STYLE = new Map<string, IncrementalStyle<never, unknown>>(
  INCREMENTAL_STYLES.map((s) => [incrementalStyleOf(s as unknown as IncrementalStyle), s as unknown as IncrementalStyle<never, unknown>]),
);

export function incrementalStyle(inc: { style: string }): IncrementalStyle<never, unknown> {
  const s = BY_STYLE.get(inc.style);
  if (!s) throw new Error(`unknown incremental style "${inc.style}"`);
  return s;
}

/** How lists return only what changed: the union of every module's schema in this registry, by `style`. */
export const Incremental = unionOf("style", INCREMENTAL_STYLES);
export type Incremental = z.infer<typeof Incremental>;
