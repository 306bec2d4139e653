// HireWire -> TalentForge candidate migration. Commands: migrate, annotate.
import { annotate } from "./annotate.ts";
import { loadConfig } from "./config.ts";
import { migrate } from "./migrate.ts";

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
