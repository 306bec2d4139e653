// Kestrel rollup (naive): full exports the first night, then the changed rows upserted.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { RecruitOS, runExport } from "./recruitos.ts";
import { HEADER, type Job, rollupLines } from "./rollup.ts";
import { loadState, saveState } from "./state.ts";

const command = process.argv[2];
if (command !== "rollup") {
  console.error("usage: node src/main.ts rollup");
  process.exit(2);
}

const config = loadConfig();
const api = new RecruitOS(config);
const state = loadState();
const since = state.since;

// Applications and candidates: everything the first night, then what changed since the previous exports.
const apps = await runExport(api, "applications", since);
for (const r of apps.rows)
  state.applications[r["Application ID"]] = {
    jobId: Number(r["Job ID"]),
    candidateId: Number(r["Candidate ID"]),
    stage: r.Stage,
    disqualified: r.Disqualified === "true",
    updatedAt: Number(r["Last modified"]),
  };
const cands = await runExport(api, "candidates", since);
for (const r of cands.rows) state.candidates[r["Candidate ID"]] = r.Source;

state.since = Math.min(apps.requestedAt, cands.requestedAt);

const jobs = (await api.listAll("/api/v3/jobs")) as Job[];
const companies = new Map<number, string>((await api.listAll("/api/v3/companies")).map((c: { id: number; name: string }) => [c.id, c.name]));
const sources = new Map<number, string>(Object.entries(state.candidates).map(([id, s]) => [Number(id), s]));
const lines = rollupLines(jobs, companies, Object.values(state.applications), sources);

mkdirSync(config.outputDir, { recursive: true });
writeFileSync(join(config.outputDir, "requisition_rollup.csv"), `${[HEADER, ...lines].join("\r\n")}\r\n`);
saveState(state);
console.log(`${lines.length} jobs, ${Object.keys(state.applications).length} applications`);
