import { loadConfig } from "./config.ts";
import { applyRates } from "./rates.ts";
import { sync } from "./sync.ts";

const command = process.argv[2];
const config = loadConfig();

try {
  if (command === "sync") await sync(config);
  else if (command === "apply-rates") await applyRates(config);
  else {
    console.error("usage: node src/main.ts sync | apply-rates");
    process.exit(2);
  }
} catch (err) {
  console.error(`${command} failed: ${(err as Error).message}`);
  process.exit(1);
}
