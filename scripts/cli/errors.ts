/** A problem with what the user asked for: printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Runs a command body, turning UsageErrors into one-line messages and exit 2. */
export async function guarded(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`wirebench: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}
