import { describe, expect, it } from "vitest";
import { QueryParams } from "./query-params.ts";

/** Queries as clients send them, including the malformed ones a vendor must still read the way a URL parser would. */
const QUERIES = [
  "",
  "?",
  "page=2&per_page=50",
  "?a=1&a=2&b",
  "a=b=c&&=&=x&y=",
  "q=hello+world&r=a%20b&s=%2B",
  "name=%E2%82%AC%F0%9F%98%80",
  "bad=%E2%82&worse=%FF%FE&odd=%zz&tail=%4&pct=%",
  "bom=%EF%BB%BFx",
  "updated_since=2024-03-01T00:00:00+00:00&from=2024-03-01T00%3A00%3A00%2B00%3A00",
  "filter[status]=active&filter%5Bstage%5D=screen",
  "x=%41%42%43&%41=lower&caf%C3%A9=1",
  "a&b&c=",
  "+=+&%2B=%2b",
  "é=ü&k=日本",
];

describe("QueryParams reads a query as URLSearchParams does", () => {
  for (const q of QUERIES) {
    it(JSON.stringify(q), () => {
      const ours = new QueryParams(q);
      const theirs = new URLSearchParams(q);
      expect([...ours]).toEqual([...theirs]);
      expect([...ours.keys()]).toEqual([...theirs.keys()]);
      expect(ours.toString()).toBe(theirs.toString());
      for (const name of new Set(theirs.keys())) {
        expect(ours.get(name)).toBe(theirs.get(name));
        expect(ours.getAll(name)).toEqual(theirs.getAll(name));
        expect(ours.has(name)).toBe(true);
      }
      expect(ours.get("absent")).toBeNull();
      expect(ours.has("absent")).toBe(false);
    });
  }

  it("takes the query of a URL string, without its fragment", () => {
    expect([...QueryParams.ofUrl("http://x/w/a/b/v1/c?page=2&q=a+b#frag")]).toEqual([
      ["page", "2"],
      ["q", "a b"],
    ]);
    expect([...QueryParams.ofUrl("http://x/v1/c")]).toEqual([]);
  });

  it("sets a name to one value where it first stood, and serialises as URLSearchParams", () => {
    const values = ["next page", "a&b=c", "~!'()*", "\uD800lone", "50%", "€"];
    for (const v of values) {
      const ours = new QueryParams("page=1&x=y&page=3");
      const theirs = new URLSearchParams("page=1&x=y&page=3");
      ours.set("page", v);
      theirs.set("page", v);
      ours.set("new", v);
      theirs.set("new", v);
      expect(ours.toString()).toBe(theirs.toString());
      expect([...ours]).toEqual([...theirs]);
    }
  });

  it("copies pairs, leaving the original as it was", () => {
    const original = new QueryParams("a=1&b=2&a=3&c=%ED%A0%80");
    const copy = new QueryParams(original);
    expect([...copy]).toEqual([...original]);
    copy.set("a", "9");
    const reference = new URLSearchParams("a=1&b=2&a=3&c=%ED%A0%80");
    expect(original.toString()).toBe(reference.toString());
    reference.set("a", "9");
    expect(copy.toString()).toBe(reference.toString());
  });
});
