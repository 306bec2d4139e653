// The litigation-hold archive: see PROBLEM.md. Not written yet.
console.error("archive is not implemented yet");
process.exit(1);
