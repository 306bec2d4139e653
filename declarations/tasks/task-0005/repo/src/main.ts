// HireWire -> TalentForge candidate migration. Commands: migrate, annotate.
export {};

const command = process.argv[2];

if (command !== "migrate" && command !== "annotate") {
  console.error("usage: node src/main.ts migrate|annotate");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);
