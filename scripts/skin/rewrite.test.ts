import { describe, expect, it } from "vitest";
import { rewriter, vocabularyPattern } from "./rewrite.ts";
import type { SkinMap } from "./skin-map.ts";

const map: SkinMap = {
  key: "k",
  tag: "000000",
  brands: [{ from: { id: "placemint", name: "PlaceMint", envPrefix: "PLACEMINT" }, to: { id: "sablepath", name: "SablePath", envPrefix: "SABLEPATH" } }],
  prefixes: { plc_: "huz_", "CAN-": "LEW-", can_: "lew_", "C-": "J-", cc_live_: "le_live_" },
  stems: { plc: "huz", can: "lew", c: "j", cc: "le" },
  services: { PayrollGateway: "WagesPortal" },
  words: { billing_city: "invoice_town", hqLocation: "hqSite", a_b: "c_d", c_d: "e_f" },
  kept: [],
};
const rewrite = rewriter(map);

describe("a skin's rewrite", () => {
  it("renders a brand in the case it was found in, inside names and paths too", () => {
    expect(rewrite("PlaceMint placemint PLACEMINT_BASE_URL Placemint placemintClient src/placemint.ts")).toBe("SablePath sablepath SABLEPATH_BASE_URL Sablepath sablepathClient src/sablepath.ts");
  });
  it("renames a prefix's stem, in its case, where it starts an id or names the prefix, never inside a longer name", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is connector code the skin rewrites
    expect(rewrite('plc_000123 "plc_" `plc_` /^plc_\\d+$/ `plc_${n}` CAN-0042 can_7 C-17 PLC_9 /^plc[_-]?0*(\\d+)$/i /^(?:can)?[\\s_-]*\\d+$/ "cc_live_"')).toBe(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the same, rewritten
      'huz_000123 "huz_" `huz_` /^huz_\\d+$/ `huz_${n}` LEW-0042 lew_7 J-17 HUZ_9 /^huz[_-]?0*(\\d+)$/i /^(?:lew)?[\\s_-]*\\d+$/ "le_live_"',
    );
    expect(rewrite("plc_count xplc_1 DOC-1 C-suite ABC-1 c1 c[0] c[i_j plc cc_live cc_other_")).toBe("plc_count xplc_1 DOC-1 C-suite ABC-1 c1 c[0] c[i_j plc cc_live cc_other_");
  });
  it("renames services and words as whole words only", () => {
    expect(rewrite("PayrollGateway billing_city row.billing_city hqLocation")).toBe("WagesPortal invoice_town row.invoice_town hqSite");
    expect(rewrite("billing_city_code my_billing_city hqLocations PayrollGateways")).toBe("billing_city_code my_billing_city hqLocations PayrollGateways");
  });
  it("rewrites in one pass: a replacement is never rewritten again", () => {
    expect(rewrite("a_b c_d")).toBe("c_d e_f");
  });
  it("finds exactly what it renames", () => {
    const found = [..."PLACEMINT plc_9 billing_city status C-suite".matchAll(vocabularyPattern(map))].map((m) => m[0]);
    expect(found).toEqual(["PLACEMINT", "plc", "billing_city"]);
  });
});
