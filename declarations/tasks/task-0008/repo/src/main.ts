// TalentForge new-hire writeback. Command: apply (reads data/new-hires.json).
const command = process.argv[2];

if (command !== "apply") {
  console.error("usage: node src/main.ts apply");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);
