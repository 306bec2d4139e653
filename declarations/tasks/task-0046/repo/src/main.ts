// push: apply input/reschedules.csv to Interviewly; serve: take Interviewly's webhooks. Not written yet.
console.error("not implemented");
process.exit(1);
