/**
 * The Classic closure archive, as it runs every night since 2019. It reads
 * every employee and assignment, keeps the whole roster, and archives whatever
 * was on yesterday's roster and is gone today, with yesterday's copy.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { type Record, listAll } from "./gateway.ts";

export interface Closure {
  record_type: string;
  id: string;
  deleted_at: string;
  last_known: { [field: string]: unknown } | null;
}

interface Roster {
  employee: { [id: string]: Record };
  assignment: { [id: string]: Record };
}

const KINDS = [
  { type: "employee" as const, op: "ListEmployees", idField: "employee_id" },
  { type: "assignment" as const, op: "ListAssignments", idField: "assignment_id" },
];

function readJson<T>(path: string, fallback: T): T {
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as T) : fallback;
}

export async function archiveClassic(config: Config): Promise<void> {
  const dir = join(config.outputDir, "classic");
  mkdirSync(dir, { recursive: true });
  const yesterday = readJson<Roster | null>(join(dir, "roster.json"), null);
  const closures = readJson<Closure[]>(join(config.outputDir, "closures.json"), []);
  const today: Roster = { employee: {}, assignment: {} };
  for (const k of KINDS) for (const rec of await listAll(config, k.op, k.type)) today[k.type][rec[k.idField]] = rec;

  const now = new Date().toISOString();
  let closed = 0;
  if (yesterday) {
    for (const k of KINDS) {
      for (const [id, rec] of Object.entries(yesterday[k.type])) {
        if (today[k.type][id] || closures.some((c) => c.id === id)) continue;
        closures.push({ record_type: k.type, id, deleted_at: now, last_known: rec });
        closed++;
      }
    }
  }
  closures.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeFileSync(join(config.outputDir, "closures.json"), `${JSON.stringify(closures, null, 2)}\n`);
  writeFileSync(join(dir, "roster.json"), `${JSON.stringify(today)}\n`);
  writeFileSync(join(dir, "state.json"), `${JSON.stringify({ last_run_at: now, employees: Object.keys(today.employee).length, assignments: Object.keys(today.assignment).length }, null, 2)}\n`);
  console.log(`archive-classic: ${closed} closures archived`);
}
