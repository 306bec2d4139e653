import { feed } from "./feed.ts";
import { legacyFeed } from "./legacy/feed.ts";

const command = process.argv[2];
const jobs: Record<string, () => Promise<void>> = { "legacy-feed": legacyFeed, feed };
const job = command ? jobs[command] : undefined;
if (!job) {
  console.error("usage: node src/main.ts legacy-feed|feed");
  process.exit(2);
}
job().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
