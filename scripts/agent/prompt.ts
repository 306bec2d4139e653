/**
 * @module prompt
 * The one prompt every lane gets (the direct loop sends it as its first user
 * message), with the ticket embedded.
 */

/** Characters of PROBLEM.md embedded in the prompt. */
const PROBLEM_CHARS = 20_000;

/** `workspace`: where the agent sees its workspace (`/workspace` in the sandbox, the default). */
export function agentPrompt(opts: { task: string; problem: string; hasMaterials: boolean; roles: string[]; workspace?: string }): string {
  const ws = opts.workspace ?? "/workspace";
  const roleVars = opts.roles.map((r) => `${r.toUpperCase().replace(/-/g, "_")}_BASE_URL / ${r.toUpperCase().replace(/-/g, "_")}_DOCS_URL`).join(", ");
  return [
    `You are working on ticket ${opts.task} in ${ws}.`,
    `${ws} holds PROBLEM.md (the ticket), repo/ (the connector's git repository: make every change there and nowhere else)${opts.hasMaterials ? ", materials/ (notes from the customer; they may be wrong)" : ""} and docs/ (the vendor's documentation as Markdown and openapi.json).`,
    `A development instance of each vendor is running. Its URLs are in the environment (${roleVars}; start with VENDOR_BASE_URL and VENDOR_DOCS_URL), and so are its credentials. OUTPUT_DIR is where the connector writes its output; SERVE_PORT is where a webhook listener must listen.`,
    "Read the ticket, the docs and the materials, build or fix the connector in repo/, try it against the development instance, and stop when the ticket is done.",
    "",
    "--- PROBLEM.md ---",
    opts.problem.slice(0, PROBLEM_CHARS),
  ].join("\n");
}
