// board: write the morning availability board for one date (see PROBLEM.md). Not written yet.
console.error("not implemented");
process.exit(1);
