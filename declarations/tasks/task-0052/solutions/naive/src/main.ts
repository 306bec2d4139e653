// Naive: written faithfully from the task's own (lying) docs, an overlay on repo/ (at most 75, unsolved).
console.error("naive not written yet");
process.exit(1);
