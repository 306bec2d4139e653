import { loadConfig } from "./config.ts";
import { poll } from "./poll.ts";
import { push } from "./push.ts";

const command = process.argv[2];
if (command !== "push" && command !== "poll") {
  console.error("usage: node src/main.ts push|poll");
  process.exit(2);
}

const config = loadConfig();
(command === "push" ? push(config) : poll(config)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
