import { loadConfig } from "./config.ts";
import { serve } from "./serve.ts";
import { sync } from "./sync.ts";

const command = process.argv[2];
if (command !== "sync" && command !== "serve") {
  console.error("usage: node src/main.ts sync|serve");
  process.exit(2);
}
const config = loadConfig();
if (command === "serve") serve(config);
else
  sync(config).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
