// signup-import: turns Harbour Temps' sign-up file into CrewCall workers (see the ticket).
console.error("not implemented yet");
process.exit(1);
