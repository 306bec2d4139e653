/**
 * @module declaration-hash
 * SHA-256 over the vendor declarations this farm serves: two farms of one
 * release seed identical worlds only if their hashes agree.
 */
import { VENDORS } from "../../declarations/vendors/index.ts";

let memo: Promise<string> | null = null;

/** Hex SHA-256 of every vendor declaration, in id order (computed once per isolate). */
export function declarationHash(): Promise<string> {
  memo ??= (async () => {
    const text = JSON.stringify(
      Object.keys(VENDORS)
        .sort()
        .map((id) => VENDORS[id]),
    );
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  })();
  return memo;
}
