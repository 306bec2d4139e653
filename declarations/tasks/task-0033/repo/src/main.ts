import { loadConfig } from "./config.ts";

const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
loadConfig();
console.error("sync: not implemented yet");
process.exit(1);
