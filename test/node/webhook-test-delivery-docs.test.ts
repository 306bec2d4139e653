import { describe, expect, it } from "vitest";
import { DOCS_PROFILES } from "../../declarations/schema/docs-profile.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { buildDocsSet } from "../../workers/docs/docs-set.ts";
import { buildState } from "../../workers/engine/data/generate.ts";

const BASE = "https://api.example.test";
const WEBHOOK_VENDORS = Object.values(VENDORS).filter((v) => v.webhooks);

/** The "Sending a test event" section of a webhooks page, or null. */
function section(markdown: string): string | null {
  const m = /\n## Sending a test event\n[\s\S]*?(?=\n## |\n---)/.exec(markdown);
  return m ? m[0] : null;
}

describe.each(WEBHOOK_VENDORS.map((v) => [v.id, v] as const))("%s's docs of the test-delivery route", (_id, vendor) => {
  const t = vendor.webhooks!.testDelivery!;
  const sets = DOCS_PROFILES.map((profile) => buildDocsSet(vendor, profile, { baseUrl: BASE, examples: buildState(vendor, 1, 0, 1) }));

  it("are in every profile, and the same wherever the webhooks page is (no lie touches them)", () => {
    const sections = new Set<string>();
    for (const set of sets) {
      const page = set.pages.find((p) => p.slug === "webhooks");
      const index = set.pages.find((p) => p.slug === "index")!.markdown;
      const told = page ? section(page.markdown) : null;
      // The sparse profile has no webhooks page: its endpoint list names the route instead.
      expect(told ?? index, set.profile).toContain(`\`POST ${t.path}\` with \`{"${t.typeField}"`);
      if (told) sections.add(told);
    }
    expect(sections.size).toBe(1);
    const [told] = sections;
    expect(told).toContain(`{"${t.typeField}":"${vendor.webhooks!.entities[0]}.created"}`);
    expect(told).toContain(vendor.webhooks!.ack ? "dead-lettered" : "signed, retried and acknowledged");
    for (const status of ["`202`", "`400`", "`409`", "`422`"]) expect(told).toContain(status);
  });
});
