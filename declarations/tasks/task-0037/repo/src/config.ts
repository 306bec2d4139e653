/** Settings from the environment; a missing one stops the job with a clear message. */
export interface StafflineConfig {
  baseUrl: string;
  appToken: string;
  hmacSecret: string;
}

export interface BullpenConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface Config {
  staffline: StafflineConfig;
  bullpen: BullpenConfig;
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
    staffline: {
      baseUrl: required("STAFFLINE_BASE_URL").replace(/\/$/, ""),
      appToken: required("STAFFLINE_APP_TOKEN"),
      hmacSecret: required("STAFFLINE_HMAC_SECRET"),
    },
    bullpen: {
      baseUrl: required("BULLPEN_BASE_URL").replace(/\/$/, ""),
      clientId: required("BULLPEN_CLIENT_ID"),
      clientSecret: required("BULLPEN_CLIENT_SECRET"),
    },
    outputDir: process.env.OUTPUT_DIR ?? "output",
  };
}
