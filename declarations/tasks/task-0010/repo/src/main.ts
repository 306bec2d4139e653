// TallyHire -> StaffLine note migration. Command: import.
const command = process.argv[2];

if (command !== "import") {
  console.error("usage: node src/main.ts import");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);
