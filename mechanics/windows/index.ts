/**
 * @module windows
 * The registry of window styles, the only list of them: lists read one time
 * window at a time.
 */
import { cappedSpan } from "./capped-span.ts";
import { type WindowStyle, windowStyleOf } from "./define.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const WINDOW_STYLES = [cappedSpan] as const;

const BY_STYLE = new Map<string, WindowStyle<never, unknown>>(WINDOW_STYLES.map((s) => [windowStyleOf(s as unknown as WindowStyle), s as unknown as WindowStyle<never, unknown>]));

/** The module of a declared window. */
export function windowStyle(w: { style: string }): WindowStyle<never, unknown> {
  const s = BY_STYLE.get(w.style);
  if (!s) throw new Error(`unknown window style "${w.style}"`);
  return s;
}

export type { ServedWindow, WindowRead } from "./define.ts";

/** A list read one time window at a time: the union of every module's schema in this registry, by `style`. */
export const Window = unionOf("style", WINDOW_STYLES);
export type Window = z.infer<typeof Window>;
