import { loadConfig } from "./config.ts";
import { serve } from "./relay.ts";
import { sync } from "./sync.ts";

const command = process.argv[2];
const config = loadConfig();
if (command === "sync") {
  sync(config).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
} else if (command === "serve") {
  serve(config);
} else {
  console.error("usage: node src/main.ts sync|serve");
  process.exit(2);
}
