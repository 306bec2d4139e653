import { loadConfig } from "./config.ts";

/** The screening mirror sync: see PROBLEM.md. Not written yet. */
const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
loadConfig();
console.error("sync is not implemented yet");
process.exit(1);
