/**
 * @module shared/gateway-calls
 * What a logged call of an XML gateway (SOAP or XML over POST) asked for, read
 * from the raw body the request log keeps: which operation it called, the text
 * of a parameter element, and which list calls read everything again instead
 * of what changed. Elements may carry a namespace prefix (`<pg:changedSince>`).
 */
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { Snapshot } from "../../../evidence/verdict.ts";

const bodyText = (r: RequestLogEntry): string => (typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? ""));
const escapeName = (name: string): string => name.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

/** Whether a call's body holds the operation's element (the SOAP Body's one child, or an XML-POST call's root). */
export function callsOperation(r: RequestLogEntry, operation: string): boolean {
  return new RegExp(`<(?:[\\w.-]+:)?${escapeName(operation)}[\\s/>]`).test(bodyText(r));
}

/** The trimmed text of a call's first element with this name, or null when it has none. */
export function callElement(r: RequestLogEntry, name: string): string | null {
  return bodyText(r).match(new RegExp(`<(?:[\\w.-]+:)?${escapeName(name)}(?:\\s[^>]*)?>\\s*([^<]*?)\\s*</`))?.[1] ?? null;
}

/** The gateway's list operations a task judges, and how their incremental filter reads. */
export interface IncrementalLists {
  /** The gateway's path. */
  path: string;
  /** Each list operation and the snapshot entity it lists. */
  lists: readonly { operation: string; entity: string }[];
  /** The element of the real incremental filter (`changedSince`). */
  sinceElement: string;
  /** The record field the filter compares (`last_changed`). */
  changedField: string;
}

/**
 * The list calls the vendor answered (200) and the ones among them that read
 * everything again: no filter the vendor honours, or one so early that more
 * than half the live records of its entity in `truth` changed after it.
 */
export function rereads(requests: readonly RequestLogEntry[], rule: IncrementalLists, truth: Snapshot): { reads: number; again: string[] } {
  const again: string[] = [];
  let reads = 0;
  for (const r of requests) {
    if (r.method !== "POST" || r.path !== rule.path || r.status !== 200) continue;
    const list = rule.lists.find((l) => callsOperation(r, l.operation));
    if (!list) continue;
    reads++;
    const since = callElement(r, rule.sinceElement);
    const at = Date.parse(since ?? "");
    if (Number.isNaN(at)) {
      again.push(`#${r.seq} ${list.operation} without ${rule.sinceElement}`);
      continue;
    }
    const live = (truth.entities[list.entity] ?? []).filter((x) => !x.deleted);
    const newer = live.filter((x) => Date.parse(String(x.record[rule.changedField])) > at).length;
    if (newer * 2 > live.length) again.push(`#${r.seq} ${list.operation} since ${since} (${newer} of ${live.length} records)`);
  }
  return { reads, again };
}
