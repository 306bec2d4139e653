/** A problem with what the user asked for: the CLI prints it as one line and exits with code 2 (`cli/errors.ts`). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
