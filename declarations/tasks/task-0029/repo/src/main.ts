// Kestrel rollup: copies the Reporting Mart's nightly requisition_rollup.csv to OUTPUT_DIR.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const command = process.argv[2];
if (command !== "rollup") {
  console.error("usage: node src/main.ts rollup");
  process.exit(2);
}

const drop = process.env.MART_DROP_DIR ?? "/srv/recruitos-mart/drop";
const file = join(drop, "requisition_rollup.csv");
if (!existsSync(file)) {
  console.error(`no Mart drop at ${file}`);
  process.exit(1);
}
const out = process.env.OUTPUT_DIR ?? "output";
mkdirSync(out, { recursive: true });
copyFileSync(file, join(out, "requisition_rollup.csv"));
