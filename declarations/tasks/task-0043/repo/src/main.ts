// pool-index: writes the capability index of our Sourcewell talent pools (see the ticket).
console.error("not implemented yet");
process.exit(1);
