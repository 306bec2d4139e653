import type { Lie } from "../../declarations/schema/lies.ts";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import type { StateRecord } from "../engine/data/generate.ts";
import { modelForProfile } from "./apply-lies.ts";
import { truthfulModel } from "./build-model.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";
import type { DocModel } from "./model.ts";
import { renderOpenApi } from "./openapi.ts";
import { serviceDescription } from "./gateway-description.ts";
import { renderPages, type DocPage } from "./pages.ts";
import { RELEASE } from "./release.ts";
import { renderHtmlSite } from "./render-html.ts";

/** A complete documentation set for one vendor and profile. */
export interface DocsSet {
  profile: DocsProfile;
  canary: string;
  model: DocModel;
  pages: DocPage[];
  openapi: Record<string, unknown>;
  /** HTML file name -> page. */
  html: Map<string, string>;
  /** Service description files (`<Service>.wsdl`) -> text, one per gateway whose style has one. */
  descriptions: Map<string, string>;
}

/**
 * Builds the documentation of a vendor for a profile, with examples from a
 * seeded state. `lies` overrides the declared lies (to study one at a time).
 */
export function buildDocsSet(vendor: Vendor, profile: DocsProfile, opts: { baseUrl: string; examples: StateRecord[]; lies?: readonly Lie[] }): DocsSet {
  const model = modelForProfile(truthfulModel(vendor, { baseUrl: opts.baseUrl, release: RELEASE, examples: opts.examples }), opts.lies ?? vendor.lies, profile);
  const pages = renderPages(model);
  const descriptions = new Map<string, string>();
  for (const g of model.gateways) {
    const doc = serviceDescription(model, g);
    if (doc) descriptions.set(`${g.service}.wsdl`, doc);
  }
  return { profile, canary: model.canary, model, pages, openapi: renderOpenApi(model), html: renderHtmlSite(vendor.name, model.canary, pages), descriptions };
}
