/**
 * @module time-formats
 * The registry of time formats, the only list of them.
 */
import { z } from "zod";
import type { TimeFormatKind } from "./define.ts";
import { epochMs } from "./epoch-ms.ts";
import { epochS } from "./epoch-s.ts";
import { isoUtc } from "./iso.ts";
import { isoOffset } from "./iso-offset.ts";
import { localWallTime } from "./local.ts";

export const TIME_FORMATS = [epochMs, epochS, isoUtc, isoOffset, localWallTime] as const;

export type TimeFormatName = (typeof TIME_FORMATS)[number]["name"];

/** The format names, for the declaration schema's enum. */
export const TIME_FORMAT_NAMES = TIME_FORMATS.map((f) => f.name) as unknown as readonly [TimeFormatName, ...TimeFormatName[]];

const BY_NAME = new Map<string, TimeFormatKind>(TIME_FORMATS.map((f) => [f.name, f]));

export function timeFormat(name: string): TimeFormatKind {
  const f = BY_NAME.get(name);
  if (!f) throw new Error(`unknown time format "${name}"`);
  return f;
}

/** How a vendor writes timestamps: the name of one module in this registry. */
export const TimeFormat = z.enum(TIME_FORMAT_NAMES);
export type TimeFormat = z.infer<typeof TimeFormat>;
