/**
 * @module deletes
 * The registry of delete styles: the only list of them.
 */
import type { z } from "zod";
import { type DeleteStyle, modeOf } from "./define.ts";
import { flagDeletes } from "./flag.ts";
import { goneDeletes } from "./gone.ts";
import { tombstoneDeletes } from "./tombstones.ts";
import { vanishDeletes } from "./vanish.ts";
import { unionOf } from "../kit/union.ts";

export const DELETE_STYLES = [tombstoneDeletes, flagDeletes, goneDeletes, vanishDeletes] as const;

const BY_MODE = new Map<string, DeleteStyle<z.ZodObject, unknown>>(DELETE_STYLES.map((s) => [modeOf(s as unknown as DeleteStyle), s as unknown as DeleteStyle<z.ZodObject, unknown>]));

/** The module of a declared delete style. */
export function deleteStyle(d: { mode: string }): DeleteStyle<z.ZodObject, unknown> {
  const s = BY_MODE.get(d.mode);
  if (!s) throw new Error(`unknown delete style "${d.mode}"`);
  return s;
}

/** The status a read of a deleted record answers, or null when the style serves it. */
export function deletedReadStatus(d: { mode: string }): number | null {
  const read = deleteStyle(d).read;
  return read.serve ? null : read.status;
}

/** The flag field marking served records deleted, if the style has one. */
export function deleteFlagField(d: { mode: string }): string | undefined {
  return deleteStyle(d).flagField?.(d);
}

/** What happens to deleted records: the union of every module's schema in this registry, by `mode`. */
export const Deletes = unionOf("mode", DELETE_STYLES);
export type Deletes = z.infer<typeof Deletes>;
