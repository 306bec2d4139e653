import { describe, expect, it } from "vitest";
import { PageItemsCache } from "./page-items-cache.ts";

const page = (json: string) => ({ json, count: json ? json.split(",").length : 0, total: 9 });

describe("PageItemsCache", () => {
  it("answers a page only at the store version it was cached at", () => {
    const cache = new PageItemsCache();
    cache.set("candidates||0|50", 3, page("1,2"));
    expect(cache.get("candidates||0|50", 3)).toEqual(page("1,2"));
    expect(cache.get("candidates||0|50", 4)).toBeUndefined();
    expect(cache.get("candidates||50|50", 3)).toBeUndefined();
    cache.set("candidates||0|50", 4, page("1,3"));
    expect(cache.get("candidates||0|50", 3)).toBeUndefined();
    expect(cache.get("candidates||0|50", 4)).toEqual(page("1,3"));
  });

  it("holds at most its cap of pages, starting over when a new one would pass it", () => {
    const cache = new PageItemsCache(2);
    cache.set("a", 1, page("a"));
    cache.set("b", 1, page("b"));
    cache.set("b", 2, page("b2"));
    expect(cache.get("a", 1)).toEqual(page("a"));
    cache.set("c", 1, page("c"));
    expect(cache.get("a", 1)).toBeUndefined();
    expect(cache.get("b", 2)).toBeUndefined();
    expect(cache.get("c", 1)).toEqual(page("c"));
  });
});
