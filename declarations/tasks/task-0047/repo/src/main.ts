import { loadConfig } from "./config.ts";

const command = process.argv[2];
const config = loadConfig();

if (command === "sync" || command === "apply-rates") {
  console.error(`${command}: not written yet (output would go to ${config.outputDir})`);
  process.exit(1);
}
console.error("usage: node src/main.ts sync | apply-rates");
process.exit(2);
