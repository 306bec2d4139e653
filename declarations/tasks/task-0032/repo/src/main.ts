import { loadConfig } from "./config.ts";

const command = process.argv[2];
if (command !== "census") {
  console.error("usage: node src/main.ts census");
  process.exit(2);
}
loadConfig();
console.error("census: not implemented yet");
process.exit(1);
