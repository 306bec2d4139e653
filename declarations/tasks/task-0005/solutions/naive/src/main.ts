// HireWire -> TalentForge candidate migration. Commands: migrate, annotate.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hirewireCandidates, TalentForge } from "./api.ts";
import { loadConfig, type Config } from "./config.ts";

interface MappingRow {
  hirewire_id: number;
  talentforge_id: string;
  action: "matched" | "created";
}

async function migrate(config: Config): Promise<void> {
  const tf = new TalentForge(config);
  const people = await hirewireCandidates(config);
  const byEmail = new Map<string, string>();
  for (const c of await tf.candidates()) byEmail.set(String(c.email).toLowerCase(), String(c.id));
  const rows: MappingRow[] = [];
  for (const p of people) {
    const existing = byEmail.get(String(p.email).toLowerCase());
    if (existing) {
      rows.push({ hirewire_id: Number(p.id), talentforge_id: existing, action: "matched" });
      continue;
    }
    const created = (await tf.request("POST", "/rest/candidates", { given_name: p.name, family_name: p.surname, email: p.email, current_title: p.role ?? undefined })) as { id: string };
    byEmail.set(String(p.email).toLowerCase(), created.id);
    rows.push({ hirewire_id: Number(p.id), talentforge_id: created.id, action: "created" });
  }
  rows.sort((a, b) => a.hirewire_id - b.hirewire_id);
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "mapping.json"), JSON.stringify(rows, null, 2));
}

async function annotate(config: Config): Promise<void> {
  const path = join(config.outputDir, "mapping.json");
  if (!existsSync(path)) throw new Error("run migrate first");
  const mapping = JSON.parse(readFileSync(path, "utf8")) as MappingRow[];
  const stages = new Map((await hirewireCandidates(config)).map((c) => [Number(c.id), c.stage]));
  const tf = new TalentForge(config);
  const rows = [];
  for (const m of mapping.filter((r) => r.action === "created")) {
    const note = (await tf.request("POST", `/rest/candidates/${m.talentforge_id}/notes`, {
      body: `Migrated from HireWire candidate ${m.hirewire_id} (stage: ${String(stages.get(m.hirewire_id))}).`,
      author: "HireWire migration",
    })) as { id: string };
    rows.push({ hirewire_id: m.hirewire_id, talentforge_id: m.talentforge_id, note_id: note.id });
  }
  writeFileSync(join(config.outputDir, "notes.json"), JSON.stringify(rows, null, 2));
}

const command = process.argv[2];
if (command !== "migrate" && command !== "annotate") {
  console.error("usage: node src/main.ts migrate|annotate");
  process.exit(2);
}
const config = loadConfig();
(command === "migrate" ? migrate(config) : annotate(config)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
