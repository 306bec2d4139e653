// StaffLine bridge. Commands: sync, import-notes.
const command = process.argv[2];

if (command !== "sync" && command !== "import-notes") {
  console.error("usage: node src/main.ts sync|import-notes");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);
