/** Settings from the environment; a missing one stops the connector with a clear message. */
export interface Config {
  hirewireUrl: string;
  hirewireKey: string;
  talentforgeUrl: string;
  talentforgeClientId: string;
  talentforgeClientSecret: string;
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
    hirewireUrl: required("HIREWIRE_BASE_URL").replace(/\/$/, ""),
    hirewireKey: required("HIREWIRE_API_KEY"),
    talentforgeUrl: required("TALENTFORGE_BASE_URL").replace(/\/$/, ""),
    talentforgeClientId: required("TALENTFORGE_CLIENT_ID"),
    talentforgeClientSecret: required("TALENTFORGE_CLIENT_SECRET"),
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
