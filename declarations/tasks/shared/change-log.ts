/**
 * @module shared/change-log
 * The append-only change log the mirror tasks write (`changes.json`): its row schema, and what a judge finds wrong with one.
 */
import { z } from "zod";
import type { Snapshot } from "../../../evidence/verdict.ts";
import { fewIds } from "./judging.ts";

/** A row of the append-only change log the mirror tasks write (`changes.json`): one per new version taken in. */
export const ChangeRowSchema = z.looseObject({
  seq: z.number().int().positive(),
  entity: z.enum(["candidate", "application"]),
  source_id: z.string(),
  updated_at: z.string(),
  is_deleted: z.boolean(),
  via: z.enum(["webhook", "poll"]),
  event_id: z.string().nullable(),
});

/** A change-log row as a judge reads it: every field unchecked, since the connector wrote it. */
export interface ChangeRow {
  seq: unknown;
  entity: unknown;
  source_id: unknown;
  updated_at: unknown;
  is_deleted: unknown;
  via: unknown;
  event_id: unknown;
}

/** The key of one change: a record's version (a delete marked as such). */
export const changeKey = (entity: unknown, id: unknown, updatedAt: unknown, deleted: unknown) => `${String(entity)} ${String(id)} @ ${String(updatedAt)}${deleted === true ? " (deleted)" : ""}`;

/**
 * Change-log keys of what changed between two snapshots: each record of
 * `entities` whose record or deletion differs, or that is new, at its new
 * version (`updatedField`), once.
 */
export function changesBetween<E extends string>(a: Snapshot, b: Snapshot, entities: readonly E[], updatedField: string): Map<string, { entity: E; id: string }> {
  const out = new Map<string, { entity: E; id: string }>();
  for (const entity of entities) {
    const before = new Map((a.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of b.entities[entity] ?? []) {
      const p = before.get(r.id);
      if (p && p.deleted === r.deleted && JSON.stringify(p.record) === JSON.stringify(r.record)) continue;
      out.set(changeKey(entity, r.id, r.record[updatedField], r.deleted), { entity, id: r.id });
    }
  }
  return out;
}

/** The words a task's details use for its log. */
export interface ChangeLogWords {
  /** The vendor's name (`TalentForge`). */
  vendor: string;
  /** What writing a row is called (`logged`, `journalled`). */
  verb: string;
  /** How an event a webhook row may name came (`authentically delivered`, `delivered`). */
  delivered: string;
}

/**
 * Problems of a change log against the changes it must hold: rows numbered
 * 1..n in order, each expected change exactly once, nothing else, versions of
 * one record in increasing order, `via` webhook or poll, and every row a
 * webhook brought attributed to one of `events`. None when the log is right.
 */
export function changeLogProblems(rows: ChangeRow[], expected: Map<string, unknown>, events: Set<string>, words: ChangeLogWords): string[] {
  const problems: string[] = [];
  const badSeq = rows.findIndex((r, i) => r.seq !== i + 1);
  if (badSeq >= 0) problems.push(`row ${badSeq + 1} has seq ${JSON.stringify(rows[badSeq].seq)}`);
  const counts = new Map<string, number>();
  for (const r of rows) {
    const key = changeKey(r.entity, r.source_id, r.updated_at, r.is_deleted);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const twice = [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
  const missing = [...expected.keys()].filter((k) => !counts.has(k));
  const extra = [...counts.keys()].filter((k) => !expected.has(k));
  if (twice.length) problems.push(`${twice.length} changes ${words.verb} more than once (${fewIds(twice)})`);
  if (missing.length) problems.push(`${missing.length} changes never ${words.verb} (${fewIds(missing)})`);
  if (extra.length) problems.push(`${extra.length} rows for no change ${words.vendor} made (${fewIds(extra)})`);
  const lastAt = new Map<string, number>();
  const backwards: string[] = [];
  for (const r of rows) {
    const id = `${String(r.entity)} ${String(r.source_id)}`;
    const at = typeof r.updated_at === "string" ? Date.parse(r.updated_at) : Number.NaN;
    if (lastAt.has(id) && !(at > lastAt.get(id)!)) backwards.push(id);
    lastAt.set(id, at);
  }
  if (backwards.length) problems.push(`${backwards.length} records ${words.verb} out of version order (${fewIds(backwards)})`);
  const badVia = rows.filter((r) => r.via !== "webhook" && r.via !== "poll");
  if (badVia.length) problems.push(`${badVia.length} rows with via ${JSON.stringify(badVia[0].via)}`);
  const unattributed = rows.filter((r) => r.via === "webhook" && !events.has(String(r.event_id)));
  if (unattributed.length) problems.push(`${unattributed.length} webhook rows name no event ${words.vendor} ${words.delivered} (${fewIds(unattributed.map((r) => String(r.event_id)))})`);
  return problems;
}
