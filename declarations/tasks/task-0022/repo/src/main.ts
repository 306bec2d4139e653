// Keel & Crane -> HireWire connector. Commands: push (reads input/placements.json), poll.
const command = process.argv[2];

if (command !== "push" && command !== "poll") {
  console.error("usage: node src/main.ts push|poll");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);
