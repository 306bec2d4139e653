import { archive } from "./archive.ts";
import { archiveClassic } from "./classic.ts";
import { loadConfig } from "./config.ts";

const command = process.argv[2];
const config = loadConfig();

try {
  if (command === "archive-classic") await archiveClassic(config);
  else if (command === "archive") await archive(config);
  else {
    console.error("usage: node src/main.ts archive-classic | archive");
    process.exit(2);
  }
} catch (err) {
  console.error(`${command} failed: ${(err as Error).message}`);
  process.exit(1);
}
