import { loadConfig } from "./config.ts";
import { sync } from "./sync.ts";

const USAGE = "usage: node src/main.ts sync [--incremental]";

const [command, ...flags] = process.argv.slice(2);
if (command !== "sync" || flags.some((f) => f !== "--incremental")) {
  console.error(USAGE);
  process.exit(2);
}

sync(loadConfig(), { incremental: flags.includes("--incremental") })
  .then((summary) => {
    for (const [file, n] of Object.entries(summary)) console.log(`${file}: ${n.read} read, ${n.deleted} marked deleted, ${n.total} rows`);
  })
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
