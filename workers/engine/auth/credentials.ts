import type { Auth } from "../../../declarations/schema/auth.ts";

/** Unpredictable token material (secrets are not data, so they do not come from the seed). */
export function randomToken(bytes = 18): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  return [...buf].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Mints the per-world values of every declared credential. */
export function mintCredentials(auth: Auth): Record<string, string> {
  return Object.fromEntries(auth.credentials.map((c) => [c.name, `${c.prefix}${randomToken(c.secret ? 20 : 8)}`]));
}

/** Environment variable names under which a connector receives credentials. */
export function credentialEnvNames(envPrefix: string, auth: Auth): Record<string, string> {
  return Object.fromEntries(auth.credentials.map((c) => [c.name, `${envPrefix}_${c.name.toUpperCase()}`]));
}
