import { describe, expect, it } from "vitest";
import { buildSkin, type Corpus } from "./skin-map.ts";
import type { Vocabulary } from "./vocabulary.ts";

const vocabulary: Vocabulary = {
  brands: [
    { id: "placemint", name: "PlaceMint", envPrefix: "PLACEMINT" },
    { id: "crewcall", name: "CrewCall", envPrefix: "CREWCALL" },
  ],
  prefixes: ["pmci_", "plc_", "cc_live_", "whsec_", "CAN-", "can_"],
  services: ["PayrollGateway"],
  words: ["billing_city", "payment_terms_days", "candidate_id", "zzz_qqq"],
};
const corpus = (tokens: string[] = [], engine: string[] = []): Corpus => ({ tokens: new Set(tokens), engineTokens: new Set(engine), lowerText: tokens.join(" ").toLowerCase() });

describe("a skin", () => {
  it("is the same for the same key and differs between keys", () => {
    const a = buildSkin("alpha", vocabulary, corpus());
    expect(buildSkin("alpha", vocabulary, corpus())).toEqual(a);
    const b = buildSkin("beta", vocabulary, corpus());
    expect(b.tag).not.toBe(a.tag);
    expect(b.brands.map((x) => x.to.id)).not.toEqual(a.brands.map((x) => x.to.id));
  });
  it("renames brands in every case, keeps the shape of prefixes and their generic parts", () => {
    const s = buildSkin("alpha", vocabulary, corpus());
    for (const { from, to } of s.brands) {
      expect(to.id).toMatch(/^[a-z]+$/);
      expect(to.id).not.toBe(from.id);
      expect(to.envPrefix).toBe(to.id.toUpperCase());
      expect(to.name.toLowerCase()).toBe(to.id);
    }
    expect(s.prefixes.pmci_).toMatch(/^[a-z]{4}_$/);
    expect(s.prefixes.cc_live_).toMatch(/^[a-z]{2}_live_$/);
    expect(s.prefixes["CAN-"]).toMatch(/^[A-Z]{3}-$/);
    expect(s.prefixes.can_).toBe(s.prefixes["CAN-"].toLowerCase().replace("-", "_"));
    expect(s.stems.can).toBe(s.prefixes.can_.slice(0, 3));
    expect(s.prefixes.whsec_).toBeUndefined();
  });
  it("renames compounds through synonyms, keeps what the engine names or what has no synonym", () => {
    const s = buildSkin("alpha", vocabulary, corpus([], ["candidate_id"]));
    expect(s.words.billing_city).toMatch(/^(invoice|invoicing)_(town|municipality)$/);
    expect(s.words.payment_terms_days).toBeDefined();
    expect(s.services.PayrollGateway).toMatch(/^(Wages|Salary)(Bridge|Portal)$/);
    expect(s.kept).toEqual(
      expect.arrayContaining([
        { word: "candidate_id", why: "the engine names it" },
        { word: "zzz_qqq", why: "no part has a synonym" },
      ]),
    );
  });
  it("never picks a name the tree already has", () => {
    const taken = ["invoice_town", "invoice_municipality", "invoicing_town"];
    for (const key of ["alpha", "beta", "gamma", "delta"]) {
      const s = buildSkin(key, vocabulary, corpus(taken));
      expect(taken).not.toContain(s.words.billing_city);
      expect(s.words.billing_city ?? "kept").toMatch(/^(invoicing_municipality|kept)$/);
    }
  });
  it("refuses an empty key and a vendor whose environment prefix is not its id", () => {
    expect(() => buildSkin(" ", vocabulary, corpus())).toThrow(/key/);
    expect(() => buildSkin("k", { ...vocabulary, brands: [{ id: "placemint", name: "PlaceMint", envPrefix: "PM" }] }, corpus())).toThrow(/environment prefix/);
  });
});
