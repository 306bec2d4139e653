import { loadConfig } from "./config.ts";

const command = process.argv[2];
const config = loadConfig();

if (command === "timesheet") {
  console.error(`timesheet: not written yet (output would go to ${config.outputDir})`);
  process.exit(1);
}
console.error("usage: node src/main.ts timesheet");
process.exit(2);
