import { loadConfig } from "./config.ts";

const command = process.argv[2];
if (command !== "reconcile") {
  console.error("usage: node src/main.ts reconcile");
  process.exit(2);
}
loadConfig();
console.error("reconcile: not implemented yet");
process.exit(1);
