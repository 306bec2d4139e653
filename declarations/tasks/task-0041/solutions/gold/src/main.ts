import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { createWorker } from "./crewcall.ts";
import { csvRecords } from "./csv.ts";
import { profileOf, roleOf, type Signup, signedUpAt } from "./signups.ts";
import { type Profile, talentProfiles } from "./sourcewell.ts";

const FILE = join("input", "harbour-signups.csv");

async function importSignups(): Promise<void> {
  const cfg = loadConfig();
  mkdirSync(cfg.outputDir, { recursive: true });
  const statePath = join(cfg.outputDir, "created-workers.json");
  // Sourcewell profile id -> CrewCall worker, for everyone an earlier run created.
  const created: Record<string, number | string> = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : {};
  const signups = csvRecords(readFileSync(FILE, "utf8")) as unknown as Signup[];
  const profiles = await talentProfiles(cfg.sourcewell.baseUrl, cfg.sourcewell.apiKey);

  const named: (Profile | null)[] = signups.map((s) => profileOf(s, profiles));
  const latest = new Map<string, { profile: Profile; row: Signup }>();
  named.forEach((p, i) => {
    if (!p) return;
    const had = latest.get(p.id);
    if (!had || signedUpAt(signups[i]) > signedUpAt(had.row)) latest.set(p.id, { profile: p, row: signups[i] });
  });

  for (const { profile, row } of [...latest.values()].sort((a, b) => (a.profile.id < b.profile.id ? -1 : 1))) {
    if (created[profile.id] !== undefined) continue;
    const worker = {
      first_name: profile.fn,
      last_name: profile.ln,
      email: profile.em,
      ...(profile.ph ? { mobile: profile.ph } : {}),
      home_zone: row.zone.trim(),
      primary_role: roleOf(row.role),
    };
    created[profile.id] = await createWorker(cfg.crewcall.baseUrl, cfg.crewcall.apiKey, worker, `harbour-signup-${profile.id}`);
    writeFileSync(statePath, JSON.stringify(created, null, 2));
  }

  const report = named.map((p, i) => ({ row: i + 1, sourcewell_id: p ? p.id : null, worker_id: p ? created[p.id] : null }));
  writeFileSync(join(cfg.outputDir, "import_report.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`${signups.length} rows, ${latest.size} people, ${report.filter((r) => r.worker_id === null).length} rows not imported`);
}

const [command] = process.argv.slice(2);
if (command !== "import") {
  console.error("usage: node src/main.ts import");
  process.exit(2);
}
importSignups().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
