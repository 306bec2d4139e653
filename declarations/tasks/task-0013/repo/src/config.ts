/** What the scheduler passes in the environment; a missing variable stops the job with exit 2. */
export interface Config {
  /** GlobalHire Talent API base URL, without a trailing slash. */
  baseUrl: string;
  /** Where GlobalHire publishes its API documentation. */
  docsUrl: string | null;
  apiKey: string;
  /** Where Compliance picks up the extract. */
  outputDir: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`missing environment variable ${name}`);
    process.exit(2);
  }
  return value;
}

export function loadConfig(): Config {
  return {
    baseUrl: required("GLOBALHIRE_BASE_URL").replace(/\/+$/, ""),
    docsUrl: process.env.GLOBALHIRE_DOCS_URL ?? null,
    apiKey: required("GLOBALHIRE_API_KEY"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
