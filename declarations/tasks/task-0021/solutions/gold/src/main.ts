// Panelwise scorecards into TalentLoop. Command: deliver.
import { loadConfig } from "./config.ts";
import { deliver } from "./deliver.ts";
import { TalentLoop } from "./talentloop.ts";

const command = process.argv[2];

if (command !== "deliver") {
  console.error("usage: node src/main.ts deliver");
  process.exit(2);
}

const config = loadConfig();
try {
  await deliver(new TalentLoop(config), config);
} catch (err) {
  console.error(`deliver: error: ${(err as Error).message}`);
  process.exit(1);
}
