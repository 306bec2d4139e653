import { loadConfig } from "./config.ts";
import { sync } from "./mirror.ts";
import { importNotes } from "./notes.ts";
import { Staffline, StafflineUnavailable } from "./staffline.ts";

/** Exit code when StaffLine asked us to come back later: the scheduler's next run continues. */
const EXIT_TRY_LATER = 75;

const command = process.argv[2];
if (command !== "sync" && command !== "import-notes") {
  console.error("usage: node src/main.ts sync|import-notes");
  process.exit(2);
}

const config = loadConfig();
const client = new Staffline(config);
try {
  if (command === "sync") await sync(config, client);
  else await importNotes(config, client);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(err instanceof StafflineUnavailable ? EXIT_TRY_LATER : 1);
}
