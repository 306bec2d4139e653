/**
 * @module auth/value-source
 * Where a presented value comes from: a per-world credential or a minted token.
 */
import { z } from "zod";

export const ValueSource = z.union([z.object({ credential: z.string() }), z.object({ token: z.string() })]);

/** The references of a value source, for the declaration checks. */
export function valueRefs(value: { credential: string } | { token: string }): { key: string; credential?: string; token?: string }[] {
  return "credential" in value ? [{ key: "value", credential: value.credential }] : [{ key: "value", token: value.token }];
}

/** A cookie's value in a Cookie header, or null. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) return rest.join("=");
  }
  return null;
}
