import { describe, expect, it } from "vitest";
import { boundedStringMap, decodeBody, jsonDepthExceeds, truncateText } from "./request-body.ts";

describe("jsonDepthExceeds", () => {
  it("counts objects and arrays, not brackets inside strings or after escapes", () => {
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[{"b":1}]}', 2)).toBe(true);
    expect(jsonDepthExceeds(`{"s":"${"[".repeat(500)}"}`, 2)).toBe(false);
    expect(jsonDepthExceeds(`{"s":"\\"${"{".repeat(500)}"}`, 2)).toBe(false);
    expect(jsonDepthExceeds("[".repeat(100_000), 64)).toBe(true);
  });
});

describe("decodeBody", () => {
  it("decodes UTF-8 strictly and flags anything else", () => {
    expect(decodeBody(new TextEncoder().encode("héllo"))).toEqual({ text: "héllo", utf8: true });
    const bad = decodeBody(new Uint8Array([0x41, 0xff, 0x42]));
    expect(bad.utf8).toBe(false);
    expect(bad.text).toBe("A\uFFFDB");
  });
});

describe("truncateText", () => {
  it("keeps short text as is and cuts long text under the bound of its JSON encoding", () => {
    expect(truncateText("short", 100)).toBe("short");
    for (const text of ["x".repeat(10_000), '"'.repeat(10_000), "\u0001".repeat(10_000), "é".repeat(10_000)]) {
      const cut = truncateText(text, 1000);
      expect(JSON.stringify(cut).length).toBeLessThanOrEqual(1000);
      expect(cut).toMatch(/more characters\]$/);
    }
  });

  it("names a secret that only the cut-off part held", () => {
    const secret = "sk_live_0123456789";
    const cut = truncateText(`${"a".repeat(5000)}${secret}`, 500, [secret]);
    expect(cut).toContain(`holds ${secret}`);
    expect(truncateText(`${secret}${"a".repeat(5000)}`, 500, [secret])).not.toContain("holds");
  });
});

describe("boundedStringMap", () => {
  it("keeps a __proto__ key as data and bounds many or long entries", () => {
    const map = JSON.parse('{"__proto__":"x","a":"b"}') as Record<string, string>;
    expect(boundedStringMap(map, 1000)).toBe(map);
    const many = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, "v".repeat(100)]));
    const bounded = boundedStringMap({ ...map, ...many }, 10_000);
    expect(JSON.stringify(bounded).length).toBeLessThanOrEqual(10_000);
    expect(Object.getPrototypeOf(bounded)).toBeNull();
    expect(bounded["…"]).toMatch(/more entries not kept/);
  });
});
