import { mkdirSync } from "node:fs";
import { loadConfig } from "./config.ts";
import { push } from "./push.ts";
import { serve } from "./serve.ts";

const command = process.argv[2];
const config = loadConfig();
mkdirSync(config.outputDir, { recursive: true });
if (command === "push") {
  push(config).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
} else if (command === "serve") {
  serve(config);
} else {
  console.error("usage: node src/main.ts push|serve");
  process.exit(2);
}
