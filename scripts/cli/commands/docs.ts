import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { findVendor, VENDORS } from "../../../declarations/vendors/index.ts";
import { buildDocsSet } from "../../../workers/docs/docs-set.ts";
import { DOCS_PROFILES, type DocsProfile } from "../../../declarations/schema/docs-profile.ts";
import { buildState } from "../../../workers/engine/data/generate.ts";
import { UsageError } from "../errors.ts";

/** Options of `wirebench docs`. */
export interface DocsOptions {
  profile: string;
  out?: string;
  baseUrl: string;
  seed: string;
}

/** `wirebench docs <vendor>`: writes a vendor's documentation set (Markdown, HTML, OpenAPI) to a folder. */
export async function docs(vendorId: string, opts: DocsOptions): Promise<void> {
  const vendor = findVendor(vendorId);
  if (!vendor) throw new UsageError(`unknown vendor "${vendorId}" (known: ${Object.keys(VENDORS).join(", ")})`);
  if (!DOCS_PROFILES.includes(opts.profile as DocsProfile)) throw new UsageError(`--profile must be one of ${DOCS_PROFILES.join(", ")}, got "${opts.profile}"`);
  if (!opts.out) throw new UsageError("--out DIR is required");
  if (!/^\d+$/.test(opts.seed)) throw new UsageError(`--seed must be a non-negative integer, got "${opts.seed}"`);
  let base: URL;
  try {
    base = new URL(opts.baseUrl);
  } catch {
    throw new UsageError(`--base-url must be a URL, got "${opts.baseUrl}"`);
  }
  const set = buildDocsSet(vendor, opts.profile as DocsProfile, { baseUrl: base.href.replace(/\/$/, ""), examples: buildState(vendor, Number(opts.seed), 0) });
  const out = resolve(opts.out);
  mkdirSync(out, { recursive: true });
  for (const page of set.pages) writeFileSync(join(out, `${page.slug}.md`), page.markdown);
  for (const [file, html] of set.html) writeFileSync(join(out, file), html);
  writeFileSync(join(out, "openapi.json"), JSON.stringify(set.openapi, null, 2) + "\n");
  for (const [file, text] of set.descriptions) writeFileSync(join(out, file), text);
  console.log(`${vendor.name} docs (${opts.profile}, ${set.pages.length} pages, ${set.model.lies.length} lies) written to ${out}`);
}
