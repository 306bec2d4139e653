import { z } from "zod";

/**
 * @module docs-profile
 * Which documentation a world serves: `true` (no lies), `stale` (every
 * declared lie, with a changelog that announces them), `sparse` (endpoints and
 * auth only, no examples, plus the lies). The one definition.
 */
export const DOCS_PROFILES = ["true", "stale", "sparse"] as const;
export const DocsProfileSchema = z.enum(DOCS_PROFILES);
export type DocsProfile = z.infer<typeof DocsProfileSchema>;
