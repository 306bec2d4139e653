/** Settings from the environment; a missing one stops the job with a clear message. */
export interface VendorConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  recruitos: VendorConfig;
  placemint: VendorConfig;
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

const vendor = (prefix: string): VendorConfig => ({
  baseUrl: required(`${prefix}_BASE_URL`).replace(/\/$/, ""),
  clientId: required(`${prefix}_CLIENT_ID`),
  clientSecret: required(`${prefix}_CLIENT_SECRET`),
});

export function loadConfig(): Config {
  return { recruitos: vendor("RECRUITOS"), placemint: vendor("PLACEMINT"), outputDir: process.env.OUTPUT_DIR ?? "output" };
}
