import { UsageError } from "../kit/usage-error.ts";

export { UsageError };

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
