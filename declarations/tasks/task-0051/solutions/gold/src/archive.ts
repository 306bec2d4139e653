/**
 * `archive`: the closure archive kept from PayGrade's deletions list.
 *
 * The first run adopts the Classic job's roster as its copy of every live
 * record (converted to PayGrade's types: the Classic client kept every value as
 * text and a nil as ""), and takes its watermarks from the newest
 * `last_changed` in that roster: the Classic state's `last_run_at` is the job
 * box's clock, not PayGrade's. Every run then reads only changed employees and
 * assignments, and the deletions list: each deletion archives the copy of the
 * record, with PayGrade's own time of deletion. The first run reads the whole
 * deletions list once, to put PayGrade's times on the Classic job's rows; later
 * runs read it from well before the newest deletion seen, since a branch may key
 * a deletion in weeks late, dated when it took effect; they key pay changes late
 * too, so every run reads employees and assignments from three weeks before the
 * newest change seen. A record read live again
 * after its deletion (PayGrade's helpdesk put it back, and the deletions list no
 * longer lists it) loses its row.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { PayGrade } from "./paygrade.ts";
import { readJson, utc, writeJson } from "./mirror.ts";

const STATE = "archive-state.json";
const COPIES = "archive-copies.json";
const CLOSURES = "closures.json";
const KINDS = [
  { type: "employee", op: "ListEmployees", idField: "employee_id" },
  { type: "assignment", op: "ListAssignments", idField: "assignment_id" },
] as const;
/** How far back of the newest deletion seen each night reads the deletions list again: deletions keyed in late carry the earlier date they took effect. */
const LATE_DELETIONS_MS = 21 * 86_400_000;
/** How far back of the newest change seen each night reads employees and assignments again: pay changes keyed in late carry the earlier date they took effect. */
const LATE_CHANGES_MS = 21 * 86_400_000;
/** Fields PayGrade types as integers (its WSDL); every other field is text or a timestamp. */
const INTEGERS = new Set(["pay_rate", "bill_rate"]);

type Typed = Record<string, string | number | null>;
type Copies = Record<string, Record<string, Typed>>;

interface Closure {
  record_type: string;
  id: string;
  deleted_at: string;
  last_known: Typed | null;
}

interface State {
  watermarks: Record<string, string>;
}

/** A record with PayGrade's types: integers as numbers, no value as null (PayGrade never serves an empty text). */
function typed(rec: Record<string, unknown>): Typed {
  const out: Typed = {};
  for (const [k, v] of Object.entries(rec)) {
    if (v === null || v === undefined || v === "") out[k] = null;
    else if (INTEGERS.has(k) && typeof v === "string" && /^-?\d+$/.test(v)) out[k] = Number(v);
    else out[k] = v as string | number;
  }
  return out;
}

function later(a: string | undefined, b: string): string {
  return a === undefined || Date.parse(b) > Date.parse(a) ? b : a;
}

/** The Classic job's roster as the first copy, and watermarks from its newest `last_changed`. */
function adopt(config: Config): { copies: Copies; state: State } {
  const path = join(config.outputDir, "classic", "roster.json");
  if (!existsSync(path)) throw new Error("no Classic roster to carry on from (classic/roster.json)");
  const roster = readJson<Record<string, Record<string, Record<string, string>>>>(config.outputDir, "classic/roster.json", {});
  const copies: Copies = {};
  const state: State = { watermarks: {} };
  for (const k of KINDS) {
    copies[k.type] = {};
    for (const [id, rec] of Object.entries(roster[k.type] ?? {})) {
      copies[k.type][id] = typed(rec);
      if (rec.last_changed) state.watermarks[k.type] = utc(later(state.watermarks[k.type], rec.last_changed));
    }
  }
  return { copies, state };
}

export async function archive(config: Config): Promise<void> {
  const pg = new PayGrade(config);
  const saved = readJson<State | null>(config.outputDir, STATE, null);
  const { copies, state } = saved ? { copies: readJson<Copies>(config.outputDir, COPIES, {}), state: saved } : adopt(config);
  const next: State = { watermarks: { ...state.watermarks } };
  const closures = new Map(readJson<Closure[]>(config.outputDir, CLOSURES, []).map((c) => [c.id, { ...c, last_known: c.last_known && typed(c.last_known) }]));

  for (const k of KINDS) {
    copies[k.type] ??= {};
    const since = state.watermarks[k.type] && utc(new Date(Date.parse(state.watermarks[k.type]) - LATE_CHANGES_MS).toISOString());
    for (const f of await pg.list(k.op, k.type, { changedSince: since })) {
      const id = String(f[k.idField]);
      copies[k.type][id] = typed(f);
      // Live again: put back after its deletion, so no longer a closure.
      if (closures.get(id)?.record_type === k.type) closures.delete(id);
      next.watermarks[k.type] = later(next.watermarks[k.type], utc(String(f.last_changed)));
    }
  }
  const deletionsSince = state.watermarks.deletion && utc(new Date(Date.parse(state.watermarks.deletion) - LATE_DELETIONS_MS).toISOString());
  for (const d of await pg.list("ListDeletions", "deletion", { changedSince: deletionsSince })) {
    const deletedAt = utc(String(d.deleted_at));
    next.watermarks.deletion = later(next.watermarks.deletion, deletedAt);
    const type = String(d.record_type);
    if (!KINDS.some((k) => k.type === type)) continue;
    const id = String(d.id);
    const had = closures.get(id);
    closures.set(id, { record_type: type, id, deleted_at: deletedAt, last_known: had?.last_known ?? copies[type][id] ?? null });
    delete copies[type][id];
  }

  const rows = [...closures.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeJson(config.outputDir, CLOSURES, rows);
  writeJson(config.outputDir, COPIES, copies);
  writeJson(config.outputDir, STATE, next);
  console.log(`archive: ${rows.length} closures (${pg.calls} calls)`);
}
