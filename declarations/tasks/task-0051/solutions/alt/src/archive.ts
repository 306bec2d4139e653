/**
 * `archive`, reading the whole deletions list every night (it is small, and a
 * deletion can then never be missed by a watermark), with record watermarks two
 * weeks and a day behind the newest change seen, so a pay change keyed late
 * (dated when it took effect) is read rather than lost. The Classic job's roster is
 * adopted as the first copy, retyped (it kept every value as text, a nil as "").
 * The closures are rebuilt from the whole list each night (a record PayGrade
 * put back is no longer listed), each keeping the copy it was first archived with.
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

/** Two weeks and a day before a stamp, in UTC: pay changes keyed late are dated when they took effect. */
function behind(stamp: string): string {
  return new Date(Date.parse(stamp) - 15 * 86_400_000).toISOString();
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
      if (rec.last_changed) state.watermarks[k.type] = later(state.watermarks[k.type], behind(rec.last_changed));
    }
  }
  return { copies, state };
}

export async function archive(config: Config): Promise<void> {
  const pg = new PayGrade(config);
  const saved = readJson<State | null>(config.outputDir, STATE, null);
  const { copies, state } = saved ? { copies: readJson<Copies>(config.outputDir, COPIES, {}), state: saved } : adopt(config);
  const next: State = { watermarks: { ...state.watermarks } };
  const archived = new Map(readJson<Closure[]>(config.outputDir, CLOSURES, []).map((c) => [c.id, { ...c, last_known: c.last_known && typed(c.last_known) }]));
  const closures = new Map<string, Closure>();

  for (const k of KINDS) {
    copies[k.type] ??= {};
    for (const f of await pg.list(k.op, k.type, { changedSince: state.watermarks[k.type] })) {
      copies[k.type][String(f[k.idField])] = typed(f);
      next.watermarks[k.type] = later(next.watermarks[k.type], behind(String(f.last_changed)));
    }
  }
  for (const d of await pg.list("ListDeletions", "deletion")) {
    const deletedAt = utc(String(d.deleted_at));
    const type = String(d.record_type);
    if (!KINDS.some((k) => k.type === type)) continue;
    const id = String(d.id);
    const had = archived.get(id);
    closures.set(id, { record_type: type, id, deleted_at: deletedAt, last_known: had?.last_known ?? copies[type][id] ?? null });
    delete copies[type][id];
  }

  const rows = [...closures.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeJson(config.outputDir, CLOSURES, rows);
  writeJson(config.outputDir, COPIES, copies);
  writeJson(config.outputDir, STATE, next);
  console.log(`archive: ${rows.length} closures (${pg.calls} calls)`);
}
