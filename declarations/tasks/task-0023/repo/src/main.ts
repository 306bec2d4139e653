import { loadConfig } from "./config.ts";

const command = process.argv[2];
if (command !== "sweep") {
  console.error("usage: node src/main.ts sweep");
  process.exit(2);
}
loadConfig();
console.error("sweep: not implemented yet");
process.exit(1);
