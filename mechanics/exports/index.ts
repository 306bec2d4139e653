/**
 * @module exports
 * The registry of export styles: the only list of them.
 */
import { type ExportStyle, exportStyleOf } from "./define.ts";
import { jobExports } from "./job.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const EXPORT_STYLES = [jobExports] as const;

const BY_STYLE = new Map<string, ExportStyle<never, unknown>>(EXPORT_STYLES.map((s) => [exportStyleOf(s as unknown as ExportStyle), s as unknown as ExportStyle<never, unknown>]));

/** The module of a declared export style. */
export function exportStyle(e: { style: string }): ExportStyle<never, unknown> {
  const s = BY_STYLE.get(e.style);
  if (!s) throw new Error(`unknown export style "${e.style}"`);
  return s;
}

/** Bulk CSV exports a client requests, polls and downloads: the union of every module's schema in this registry, by `style`. */
export const Exports = unionOf("style", EXPORT_STYLES);
export type Exports = z.infer<typeof Exports>;
