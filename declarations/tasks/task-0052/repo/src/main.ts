import { loadConfig } from "./config.ts";

// The desk board connector: `sync` builds or catches up the board, `serve` is the webhook listener.
const command = process.argv[2];
if (command !== "sync" && command !== "serve") {
  console.error("usage: node src/main.ts sync|serve");
  process.exit(2);
}
loadConfig();
console.error(`${command}: not implemented yet`);
process.exit(1);
