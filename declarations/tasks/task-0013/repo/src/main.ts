// GlobalHire activity ledger -> audit periods. Compliance runs `node src/main.ts audit` once per audit cycle.
const command = process.argv[2];

if (command !== "audit") {
  console.error("usage: node src/main.ts audit");
  process.exit(2);
}

console.error("audit: not implemented yet");
process.exit(1);
