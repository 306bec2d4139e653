/**
 * @module secrets
 * The secret-exfiltration guard: every registered secret (provider keys, CLI
 * auth values) is searched for in every file an attempt keeps; a hit is
 * redacted, and the caller rejects the patch.
 */
export const REDACTED_SECRET = "[REDACTED_RUNTIME_SECRET]";

/** Secrets worth searching for (short values would match by accident). */
export function registrable(values: (string | undefined | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === "string" && v.length >= 8))];
}

/** Replaces every secret in `text`; reports whether any was there. */
export function redact(text: string, secrets: readonly string[]): { text: string; found: boolean } {
  let out = text;
  let found = false;
  for (const s of secrets) {
    if (!out.includes(s)) continue;
    found = true;
    out = out.split(s).join(REDACTED_SECRET);
  }
  return { text: out, found };
}
