import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { personKey, readState, toPerson, writeAll } from "./roster.ts";

const WORKERS = "/partner/v1/workers";
const DELETIONS = "/partner/v1/deletions";

/**
 * The first run reads the whole roster; later runs apply what changed since the last one. Any read
 * that still fails after its retries fails the run before anything is written, so the next run
 * reads the same changes again.
 */
async function census(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const state = readState(config.outputDir);

  const changed = await client.list(WORKERS, state.since);
  const deleted = state.since === null ? [] : await client.list(DELETIONS, state.since);
  for (const w of changed) state.people[personKey(w)] = toPerson(w);
  for (const d of deleted) if (d.object === "worker") delete state.people[String(d.id)];
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
