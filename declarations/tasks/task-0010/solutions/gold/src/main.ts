import { loadConfig } from "./config.ts";
import { migrate } from "./migrate.ts";
import { Staffline, StafflineUnavailable } from "./staffline.ts";

/** Exit code when StaffLine asked us to come back later than we wait: the next run carries on. */
const EXIT_TRY_LATER = 75;

const command = process.argv[2];
if (command !== "import") {
  console.error("usage: node src/main.ts import");
  process.exit(2);
}

const config = loadConfig();
try {
  await migrate(config, new Staffline(config));
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(err instanceof StafflineUnavailable ? EXIT_TRY_LATER : 1);
}
