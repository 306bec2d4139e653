/**
 * @module shared/dropped-deletes
 * Judging a mirror whose vendor drops some delete events: how many deletes
 * the armed drop faults keep back (a listener may leave that many records
 * live), and which rows the mirror marked removed without the vendor
 * confirming it, by a read of the record answering gone, in the scenario's
 * last epoch.
 */
import type { ConnectorRun, ScenarioEvidence } from "../../../evidence/verdict.ts";
import type { Vendor } from "../../schema/vendor.ts";
import { mirrorRows } from "./rows.ts";

/** How many deletes of `entity` the armed drop faults keep from ever being delivered. */
export function droppedDeletes(vendor: Vendor | undefined, armed: readonly string[], entity: string): number {
  return (vendor?.faults ?? []).filter((f) => armed.includes(f.id) && f.kind === "webhook-drop" && "type" in f && f.type === `${entity}.deleted`).length;
}

/** A mirrored entity and the output file that holds it. */
export interface MirroredEntity {
  entity: string;
  file: string;
}

/**
 * The ids the mirror marked removed between `before` and `after` (live in the
 * one, `is_deleted: true` in the other), and those of them that no GET of the
 * record by id (the resource's `get` route) answered with one of `confirming`
 * in the role's last epoch of the scenario.
 */
export function unconfirmedRemovals(
  e: ScenarioEvidence,
  role: string,
  vendor: Vendor | undefined,
  entities: readonly MirroredEntity[],
  runs: { before: ConnectorRun | undefined; after: ConnectorRun | undefined },
  confirming: readonly number[],
): { marked: string[]; unconfirmed: string[] } {
  const epoch = e.epochs[role]?.at(-1);
  const answered = new Set((e.requests[role] ?? []).filter((r) => r.epoch === epoch && r.method === "GET" && confirming.includes(r.status)).map((r) => r.path));
  const marked: string[] = [];
  const unconfirmed: string[] = [];
  for (const { entity, file } of entities) {
    const template = vendor?.resources.find((r) => r.name === entity)?.get;
    const wasLive = new Set(
      mirrorRows(runs.before, file)
        .filter((r) => r.is_deleted !== true)
        .map((r) => String(r.source_id)),
    );
    for (const r of mirrorRows(runs.after, file)) {
      const id = String(r.source_id);
      if (r.is_deleted !== true || !wasLive.has(id)) continue;
      marked.push(id);
      if (!template || !answered.has(template.replace(":id", encodeURIComponent(id)))) unconfirmed.push(id);
    }
  }
  return { marked, unconfirmed };
}
