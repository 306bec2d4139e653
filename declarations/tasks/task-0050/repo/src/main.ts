import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { personKey, readState, toPerson, writeAll } from "./roster.ts";

const WORKERS = "/partner/v1/workers";
const DELETIONS = "/partner/v1/deletions";

/** The first run reads the whole roster; later runs apply what changed since the last one. */
async function census(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const state = readState(config.outputDir);

  for (const w of await client.list(WORKERS, state.since)) state.people[personKey(w)] = toPerson(w);
  if (state.since !== null) {
    for (const d of await client.list(DELETIONS, state.since)) {
      if (d.object !== "worker") continue;
      for (const [key, p] of Object.entries(state.people)) if (p.worker_id === String(d.id)) delete state.people[key];
    }
  }
  state.since = client.serverTimeAtStart ?? state.since;
  writeAll(config.outputDir, state);
  console.error(`census: ${Object.keys(state.people).length} workers counted`);
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void>> = { census };
if (!commands[command]) {
  console.error("usage: node src/main.ts census");
  process.exit(2);
}
commands[command]().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
