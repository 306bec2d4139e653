import { describe, expect, it } from "vitest";
import type { PageRow } from "../store/page-row.ts";
import { RowJsonCache, rowVariants, variantOf } from "./row-json-cache.ts";

const row = (over: Partial<PageRow> = {}): PageRow => ({ id: "1001", version: 1, deleted: false, lagging: false, text: "{}", source: null, ...over });

describe("RowJsonCache", () => {
  const variants = rowVariants("candidates", "0");

  it("tells the four page variants apart, and resources and views", () => {
    expect(new Set(variants).size).toBe(4);
    expect(variantOf(variants, row({ lagging: true }))).not.toBe(variantOf(variants, row()));
    expect(variantOf(variants, row({ deleted: true }))).not.toBe(variantOf(variants, row({ lagging: true })));
    expect(rowVariants("jobs", "0")[0]).not.toBe(variants[0]);
    expect(rowVariants("candidates", "1")[0]).not.toBe(variants[0]);
  });

  it("holds a mirror row's text on the row object, until the row's version moves", () => {
    const cache = new RowJsonCache();
    const source = {};
    const v1 = row({ source });
    cache.set(v1, variants[0], '{"v":1}');
    expect(cache.get(row({ source }), variants[0])).toBe('{"v":1}');
    expect(cache.get(row({ source }), variants[1])).toBeUndefined();
    expect(cache.get(row({ source: {} }), variants[0])).toBeUndefined();
    expect(cache.get(row({ source, version: 2 }), variants[0])).toBeUndefined();
    cache.set(row({ source, version: 2 }), variants[0], '{"v":2}');
    expect(cache.get(row({ source, version: 2 }), variants[0])).toBe('{"v":2}');
    expect(cache.get(v1, variants[0])).toBeUndefined();
  });

  it("keys a row read from SQLite by id, version and variant, within its cap", () => {
    const cache = new RowJsonCache(2);
    cache.set(row(), variants[0], "a");
    expect(cache.get(row(), variants[0])).toBe("a");
    expect(cache.get(row({ version: 2 }), variants[0])).toBeUndefined();
    expect(cache.get(row({ id: "1002" }), variants[0])).toBeUndefined();
    cache.set(row({ id: "1002" }), variants[0], "b");
    cache.set(row({ id: "1003" }), variants[0], "c");
    expect(cache.get(row(), variants[0])).toBeUndefined();
    expect(cache.get(row({ id: "1003" }), variants[0])).toBe("c");
  });
});
