import type { Mint } from "../../../declarations/schema/auth.ts";
import type { MintResult } from "../../../mechanics/auth/define.ts";
import { tokenMint } from "../../../mechanics/auth/index.ts";
import type { VendorRequest } from "../http/vendor-request.ts";
import type { TokenStore } from "./token-store.ts";

export type { MintResult };

/** Serves one token endpoint through its mint's module. */
export function handleMint(req: VendorRequest, mint: Mint, credentials: Record<string, string>, tokens: TokenStore): MintResult {
  return tokenMint(mint).serve(mint, req, { credentials, tokens });
}
