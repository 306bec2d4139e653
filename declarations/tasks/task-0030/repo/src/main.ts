import { legacyFeed } from "./legacy/feed.ts";

const command = process.argv[2];
if (command === "legacy-feed") {
  legacyFeed().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
} else if (command === "feed") {
  console.error("feed: the REST job is not written yet");
  process.exit(1);
} else {
  console.error("usage: node src/main.ts legacy-feed|feed");
  process.exit(2);
}
