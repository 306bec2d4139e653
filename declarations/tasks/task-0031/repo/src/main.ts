import { loadConfig } from "./config.ts";

const command = process.argv[2];
if (command !== "close") {
  console.error("usage: node src/main.ts close");
  process.exit(2);
}
loadConfig();
console.error("close: not implemented yet");
process.exit(1);
