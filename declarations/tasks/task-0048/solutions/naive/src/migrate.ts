import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import type { RosterlyClient, RosterlyRecord } from "./rosterly.ts";
import { instantsOf, iso } from "./time.ts";

interface LegacyPunch {
  id: string;
  punched_at: string;
}

interface UtcPunch {
  punch_id: string;
  worker_id: string;
  shift_id: string;
  kind: string;
  venue_tz: string;
  punched_utc: string;
}

const NOTE_AUTHOR = "Payroll migration";
/** punch id -> note id of the clock-change notes filed so far. */
const FILED = "clock_change_notes.json";

function writeAtomic(file: string, text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Moves the copy to UTC storage, audits the old copy against it, and notes each ambiguous punch once. */
export async function migrate(config: Config, rosterly: RosterlyClient): Promise<void> {
  const legacyFile = join(config.outputDir, "punches.json");
  if (!existsSync(legacyFile)) throw new Error(`the old job's ${legacyFile} is missing`);
  const legacy = JSON.parse(readFileSync(legacyFile, "utf8")) as LegacyPunch[];

  const live = (await rosterly.all("/api/v3/punches")).filter((p) => p.deleted !== true);
  const byId = new Map<string, { punch: RosterlyRecord; utc: UtcPunch; ambiguous: boolean }>();
  for (const p of live) {
    const wall = String(p.punched_at);
    const zone = String(p.venue_tz);
    const moments = instantsOf(wall, zone);
    if (!moments.length) throw new Error(`punch ${p.id}: ${wall} does not exist on the ${zone} clock`);
    const utc = { punch_id: p.id, worker_id: String(p.worker_id), shift_id: String(p.shift_id), kind: String(p.kind), venue_tz: zone, punched_utc: iso(moments[0]) };
    byId.set(p.id, { punch: p, utc, ambiguous: moments.length > 1 });
  }
  const sorted = [...byId.values()].sort((a, b) => (a.utc.punch_id < b.utc.punch_id ? -1 : 1));

  const lines = ["punch_id,legacy_punched_at,punched_utc,shift_minutes,status"];
  for (const old of [...legacy].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const now = byId.get(old.id);
    if (!now) {
      lines.push([old.id, old.punched_at, "", "", "gone"].join(","));
      continue;
    }
    const minutes = Math.round((Date.parse(old.punched_at) - Date.parse(now.utc.punched_utc)) / 60_000);
    const status = now.ambiguous ? "ambiguous" : minutes !== 0 ? "moved" : "kept";
    lines.push([old.id, old.punched_at, now.utc.punched_utc, String(minutes), status].join(","));
  }

  mkdirSync(config.outputDir, { recursive: true });
  writeAtomic(
    join(config.outputDir, "punches_utc.json"),
    `${JSON.stringify(
      sorted.map((x) => x.utc),
      null,
      2,
    )}\n`,
  );
  writeAtomic(join(config.outputDir, "migration_audit.csv"), `${lines.join("\n")}\n`);

  const filedFile = join(config.outputDir, FILED);
  const filed: Record<string, string> = existsSync(filedFile) ? JSON.parse(readFileSync(filedFile, "utf8")) : {};
  for (const { punch, ambiguous } of sorted) {
    if (!ambiguous || filed[punch.id]) continue;
    const body = `Clock change: please confirm the time of punch ${punch.id} (${String(punch.punched_at)} ${String(punch.venue_tz)}).`;
    const note = await rosterly.createNote(String(punch.worker_id), { body, visibility: "managers", author: NOTE_AUTHOR }, "");
    filed[punch.id] = note.id;
    writeAtomic(filedFile, JSON.stringify(filed, null, 2));
  }
  console.log(`${sorted.length} punches in UTC, ${legacy.length} audited, ${Object.keys(filed).length} clock-change notes filed`);
}
