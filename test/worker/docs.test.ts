import { describe, expect, it } from "vitest";
import { admin, farm, rel } from "./helpers.ts";

async function world(vendor: string, docsProfile: string) {
  const res = await admin("POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 2, docsProfile });
  expect(res.status).toBe(201);
  return res.body as { world: string; vendors: { ats: { baseUrl: string; docsUrl: string } } };
}

describe("documentation served by a world", () => {
  it("serves HTML with navigation, Markdown pages and OpenAPI with the world's base URL", async () => {
    const w = await world("talentforge", "true");
    const docs = rel(w.vendors.ats.docsUrl);
    expect(docs.endsWith("/_docs/")).toBe(true);
    const index = await farm(docs);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toMatch(/text\/html/);
    const html = await index.text();
    expect(html).toContain('<nav aria-label="Documentation">');
    expect(html).toContain('href="resource-candidates.html"');
    const md = await farm(`${docs}resource-candidates.md`);
    expect(md.headers.get("content-type")).toMatch(/text\/markdown/);
    expect(await md.text()).toContain(w.vendors.ats.baseUrl);
    const api = (await (await farm(`${docs}openapi.json`)).json()) as any;
    expect(api.servers[0].url).toBe(w.vendors.ats.baseUrl);
    expect(api.paths["/rest/candidates"].get.parameters.map((p: any) => p.name)).toContain("modified_since");
  });

  it("tells the declared lies when the world's profile is stale", async () => {
    const w = await world("talentforge", "stale");
    const api = (await (await farm(`${rel(w.vendors.ats.docsUrl)}openapi.json`)).json()) as any;
    const params = api.paths["/rest/candidates"].get.parameters.map((p: any) => p.name);
    expect(params).toContain("updated_since");
    expect(params).not.toContain("modified_since");
  });

  it("redirects the bare docs path, 404s unknown pages, refuses writes, and logs none of it", async () => {
    const w = await world("hirewire", "sparse");
    const base = rel(w.vendors.ats.baseUrl);
    const bare = await farm(`${base}/_docs`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe(`${base}/_docs/`);
    expect((await farm(`${base}/_docs/nope.html`)).status).toBe(404);
    expect((await farm(`${base}/_docs/`, { method: "POST" })).status).toBe(405);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.body.roles.ats.requests).toBe(0);
  });

  it("rejects an unknown profile", async () => {
    const res = await admin("POST", "/v1/worlds", { vendors: { ats: "hirewire" }, docsProfile: "honest" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/docsProfile/);
  });
});
