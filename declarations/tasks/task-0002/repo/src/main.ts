// TalentForge mirror connector. Commands: backfill, incremental.
const command = process.argv[2];

if (command !== "backfill" && command !== "incremental") {
  console.error("usage: node src/main.ts backfill|incremental");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);

export {};
