/**
 * @module shared/rows
 * Reading a connector's output rows defensively: a judge reads fields of every
 * row, so entries that are not objects (null, numbers, strings) are dropped first.
 */
import type { ConnectorRun } from "../../../evidence/verdict.ts";
import { type MirrorRow, outputRows } from "./judging.ts";

/** The entries of `rows` that are objects; none when the file had no rows. */
export const objects = <T>(rows: T[] | null): T[] => (rows ?? []).filter((r) => r !== null && typeof r === "object");

/** The object rows of a mirror file (compareRows reads fields of every entry); none when it is missing or unreadable. */
export const mirrorRows = (run: ConnectorRun | undefined, file: string): MirrorRow[] => objects(outputRows<MirrorRow>(run, file));
