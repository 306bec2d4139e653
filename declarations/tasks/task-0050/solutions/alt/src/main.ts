import { loadConfig } from "./config.ts";
import { CrewCallClient } from "./crewcall.ts";
import { type Person, toPerson, writeAll } from "./roster.ts";

/** Every night the whole roster, read again: the census is whatever CrewCall lists now. */
async function census(): Promise<void> {
  const config = loadConfig();
  const client = new CrewCallClient(config);
  const people: Record<string, Person> = {};
  for (const w of await client.list("/partner/v1/workers", null)) people[String(w.id)] = toPerson(w);
  writeAll(config.outputDir, { since: null, people });
}

if (process.argv[2] !== "census") {
  console.error("usage: node src/main.ts census");
  process.exit(2);
}
census().catch((err) => {
  console.error(String(err));
  process.exit(1);
});
