// Larkfield onboarding: TalentForge hires into Onboardly packets. Commands: serve, reconcile.
const command = process.argv[2];

if (command !== "serve" && command !== "reconcile") {
  console.error("usage: node src/main.ts serve|reconcile");
  process.exit(2);
}

console.error(`${command}: not implemented yet`);
process.exit(1);
