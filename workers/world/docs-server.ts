/**
 * @module docs-server
 * The documentation a world serves under `_docs/`: `index.html` (also at
 * `_docs/`), `<page>.html`, `<page>.md`, `openapi.json` and a gateway's `<Service>.wsdl`, for the world's
 * profile, with examples from its seeded data and its own base URL. One set
 * is kept (the base URL only changes for worlds of older releases). Not
 * logged: reading docs is not API traffic.
 */
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { buildDocsSet, type DocsSet } from "../docs/docs-set.ts";
import { buildState } from "../engine/data/generate.ts";
import type { WorldConfig } from "../engine/world-config.ts";

export class DocsServer {
  private cached: { baseUrl: string; set: DocsSet } | null = null;

  serve(vendor: Vendor, config: WorldConfig, baseUrl: string, subpath: string): Response {
    if (this.cached?.baseUrl !== baseUrl) {
      this.cached = { baseUrl, set: buildDocsSet(vendor, config.docsProfile, { baseUrl, examples: buildState(vendor, config.seed, 0, config.scale) }) };
    }
    const set = this.cached.set;
    const file = subpath === "" || subpath === "/" ? "index.html" : subpath.replace(/^\//, "");
    if (file === "openapi.json") return Response.json(set.openapi);
    const description = set.descriptions.get(file);
    if (description) return new Response(description, { headers: { "content-type": "text/xml; charset=utf-8" } });
    const html = set.html.get(file);
    if (html) return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    const page = set.pages.find((p) => `${p.slug}.md` === file);
    if (page) return new Response(page.markdown, { headers: { "content-type": "text/markdown; charset=utf-8" } });
    return Response.json({ error: `no documentation page "${file}"` }, { status: 404 });
  }
}
