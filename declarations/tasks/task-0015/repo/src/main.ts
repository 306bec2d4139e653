// GlobalHire -> analytics lake mirror. The scheduler runs `node src/main.ts sync` every night.
const command = process.argv[2];

if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}

console.error("sync: not implemented yet");
process.exit(1);
