import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { createWorker, workersByEmail } from "./crewcall.ts";
import { csvRecords } from "./csv.ts";
import { profileOf, roleOf, type Signup, signedUpAt } from "./signups.ts";
import { type Profile, talentProfiles } from "./sourcewell.ts";

/** Another defensible reading: no state of its own; CrewCall's roster (by the profile's email) says who an earlier run created. */
async function importSignups(): Promise<void> {
  const cfg = loadConfig();
  const signups = csvRecords(readFileSync(join("input", "harbour-signups.csv"), "utf8")) as unknown as Signup[];
  const profiles = await talentProfiles(cfg.sourcewell.baseUrl, cfg.sourcewell.apiKey);
  const roster = await workersByEmail(cfg.crewcall.baseUrl, cfg.crewcall.apiKey);
  const named: (Profile | null)[] = signups.map((s) => profileOf(s, profiles));
  const latest = new Map<string, { profile: Profile; row: Signup }>();
  named.forEach((p, i) => {
    if (!p) return;
    const had = latest.get(p.id);
    if (!had || signedUpAt(signups[i]) > signedUpAt(had.row)) latest.set(p.id, { profile: p, row: signups[i] });
  });
  const workerOf = new Map<string, number | string>();
  for (const { profile, row } of latest.values()) {
    const known = roster.get(profile.em.trim().toLowerCase());
    if (known !== undefined) {
      workerOf.set(profile.id, known);
      continue;
    }
    const worker = { first_name: profile.fn, last_name: profile.ln, email: profile.em, ...(profile.ph ? { mobile: profile.ph } : {}), home_zone: row.zone.trim(), primary_role: roleOf(row.role) };
    workerOf.set(profile.id, await createWorker(cfg.crewcall.baseUrl, cfg.crewcall.apiKey, worker, `signup-${profile.id}-${profile.em}`));
  }
  const report = named.map((p, i) => ({ row: i + 1, sourcewell_id: p?.id ?? null, worker_id: p ? (workerOf.get(p.id) ?? null) : null }));
  mkdirSync(cfg.outputDir, { recursive: true });
  writeFileSync(join(cfg.outputDir, "import_report.json"), `${JSON.stringify(report, null, 2)}\n`);
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
