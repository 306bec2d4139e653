import { loadConfig } from "./config.ts";

const command = process.argv[2];
if (command !== "migrate") {
  console.error("usage: node src/main.ts migrate");
  process.exit(2);
}
loadConfig();
console.error("migrate: not implemented yet");
process.exit(1);
