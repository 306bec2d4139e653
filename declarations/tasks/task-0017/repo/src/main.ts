import { loadConfig } from "./config.ts";
import { serve } from "./listener.ts";
import { backfill, poll } from "./poll.ts";
import { push } from "./push.ts";

const commands: Record<string, () => Promise<void> | void> = {
  backfill: () => backfill(loadConfig({ api: true })),
  serve: () => serve(loadConfig({ webhooks: true })),
  poll: () => poll(loadConfig({ api: true })),
  push: () => push(loadConfig({ api: true })),
};

const command = process.argv[2] ?? "";
if (!Object.hasOwn(commands, command)) {
  console.error(`usage: node src/main.ts ${Object.keys(commands).join("|")}`);
  process.exit(2);
}
Promise.resolve()
  .then(commands[command])
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
