import diff from "microdiff";
import { describe, expect, it } from "vitest";
import { Lie } from "../../declarations/schema/lies.ts";
import { modelForProfile } from "../../workers/docs/apply-lies.ts";
import { truthfulModel } from "../../workers/docs/build-model.ts";
import { lieKind, lieProblem } from "../../mechanics/lies/index.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { buildDocsSet, type DocsSet } from "../../workers/docs/docs-set.ts";
import { RELEASE } from "../../workers/docs/release.ts";
import { buildState } from "../../workers/engine/data/generate.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { DOCS_PROFILES, type DocsProfile } from "../../declarations/schema/docs-profile.ts";

const BASE = "https://api.example.test";

/**
 * One semantic difference between two documentation sets: an OpenAPI value
 * (JSON path) or a line added to / removed from a page. Changelog headings
 * and the document version are bookkeeping, not claims, and are left out.
 */
function differences(a: DocsSet, b: DocsSet): Set<string> {
  const out = new Set<string>();
  for (const d of diff(a.openapi, b.openapi)) {
    const path = d.path.join(".");
    if (path === "info.version") continue;
    out.add(`openapi:${path}`);
  }
  // A JSON example line's trailing comma depends on its neighbours, not on what it claims.
  const lines = (md: string) => md.split("\n").map((l) => l.replace(/,$/, ""));
  const pagesA = new Map(a.pages.map((p) => [p.slug, lines(p.markdown)]));
  const pagesB = new Map(b.pages.map((p) => [p.slug, lines(p.markdown)]));
  for (const slug of new Set([...pagesA.keys(), ...pagesB.keys()])) {
    const la = pagesA.get(slug) ?? [];
    const lb = pagesB.get(slug) ?? [];
    const keep = (line: string) => !(slug === "changelog" && line.startsWith("## "));
    for (const line of la) if (!lb.includes(line) && keep(line)) out.add(`page:${slug}:-${line}`);
    for (const line of lb) if (!la.includes(line) && keep(line)) out.add(`page:${slug}:+${line}`);
  }
  // A service description (WSDL) says what the resource pages say about operations.
  for (const [file, text] of a.descriptions) {
    const la = text.split("\n");
    const lb = (b.descriptions.get(file) ?? "").split("\n");
    for (const line of la) if (!lb.includes(line)) out.add(`description:${file}:-${line}`);
    for (const line of lb) if (!la.includes(line)) out.add(`description:${file}:+${line}`);
  }
  return out;
}

function inArea(entry: string, lie: Lie): boolean {
  const area = lieKind(lie).areas;
  if (entry.startsWith("openapi:")) return area.openapi.test(entry.slice(8));
  if (entry.startsWith("description:")) return area.pages.test("resource-");
  const slug = entry.split(":")[1];
  return slug === "changelog" || area.pages.test(slug);
}

describe.each(Object.values(VENDORS))("documentation of $id", (vendor) => {
  const examples = buildState(vendor, 1, 0);
  const build = (profile: DocsProfile, lies?: Lie[]) => buildDocsSet(vendor, profile, { baseUrl: BASE, examples, lies });
  const truth = build("true");

  it("declares lies to test", () => {
    expect(vendor.lies.length).toBeGreaterThan(0);
  });

  it("differs between true and stale exactly by the union of its declared lies", () => {
    const all = differences(truth, build("stale"));
    const union = new Set<string>();
    for (const lie of vendor.lies) for (const d of differences(truth, build("stale", [lie]))) union.add(d);
    expect([...all].sort()).toEqual([...union].sort());
  });

  it.each(vendor.lies.map((l) => [l.id, l] as const))("tells lie %s, and only where that kind of lie lives", (_id, lie) => {
    const found = [...differences(truth, build("stale", [lie]))];
    const substantive = found.filter((d) => !d.startsWith("page:changelog:"));
    expect(substantive.length, `lie ${lie.id} changed nothing but the changelog`).toBeGreaterThan(0);
    const stray = found.filter((d) => !inArea(d, lie));
    expect(stray, `lie ${lie.id} (${lie.kind}) changed docs outside its area`).toEqual([]);
    expect(found).toContain(`page:changelog:+${lie.changelog}`);
  });

  it("is identical to itself when no lie is told", () => {
    expect([...differences(truth, build("stale", []))]).toEqual([]);
    expect([...differences(truth, build("true"))]).toEqual([]);
  });

  it("sparse keeps the lies but drops examples and prose pages", () => {
    const sparse = build("sparse");
    expect(sparse.pages.map((p) => p.slug)).not.toContain("pagination");
    expect(JSON.stringify(sparse.openapi)).not.toContain('"example"');
    expect(sparse.model.lies.map((l) => l.id)).toEqual(vendor.lies.map((l) => l.id));
  });

  it("prints the release canary on every page and in the OpenAPI document", () => {
    for (const profile of DOCS_PROFILES) {
      const set = build(profile);
      expect(set.canary).toMatch(new RegExp(`^WIREBENCH-CANARY-${RELEASE.replace(/\./g, "\\.")}-${vendor.id}-[0-9a-f]{8}$`));
      for (const p of set.pages) expect(p.markdown, p.slug).toContain(set.canary);
      for (const [file, html] of set.html) expect(html, file).toContain(set.canary);
      expect((set.openapi.info as Record<string, unknown>)["x-wirebench-canary"]).toBe(set.canary);
    }
  });
});

describe("release", () => {
  it("matches package.json", () => {
    expect(RELEASE).toBe(JSON.parse(readFileSync(join(projectRoot(), "package.json"), "utf8")).version);
  });
});

describe("a lie about one list", () => {
  it("changes that list's documentation only (lists share no paging object)", () => {
    const vendor = VENDORS.placemint;
    const model = truthfulModel(vendor, { baseUrl: "http://farm.test/w/x/ats", release: RELEASE, examples: buildState(vendor, 1, 0) });
    const lie = Lie.parse({ kind: "page-size-cap", id: "t-cap", resource: "client", says: 7, discover: "d", changelog: "c" });
    const told = modelForProfile(model, [lie], "stale");
    const caps = Object.fromEntries(told.resources.filter((r) => r.list).map((r) => [r.name, r.list!.paging.maxLimit]));
    expect(caps.client).toBe(7);
    expect(Object.entries(caps).filter(([name, cap]) => name !== "client" && cap === 7)).toEqual([]);
  });
});

describe("a lie about how long a cursor lives", () => {
  const lie = (says: number) => Lie.parse({ kind: "cursor-lifetime", id: "t-ttl", says, discover: "d", changelog: "c" });

  it("can be told only about cursors that expire, and only as a longer life", () => {
    expect(lieProblem(VENDORS.vettly, lie(1000))).toBeNull();
    expect(lieProblem(VENDORS.vettly, lie(10))).toMatch(/no longer/);
    expect(lieProblem(VENDORS.vettly, lie(3))).toMatch(/no longer/);
    expect(lieProblem(VENDORS.globalhire, lie(1000))).toMatch(/do not expire/);
  });

  it("gives every documented list the life it says while the API keeps the real one", () => {
    const vendor = VENDORS.vettly;
    const model = truthfulModel(vendor, { baseUrl: "http://farm.test/w/x/ats", release: RELEASE, examples: buildState(vendor, 1, 0) });
    const told = modelForProfile(model, [lie(1000)], "stale");
    expect(told.paging).toMatchObject({ ttlRequests: 1000 });
    expect(told.resources.filter((r) => r.list).map((r) => (r.list!.paging as { ttlRequests?: number }).ttlRequests)).toEqual([1000, 1000, 1000]);
    expect(vendor.paging).toMatchObject({ ttlRequests: 10 });
  });
});
