import { describe, expect, it } from "vitest";
import { Paging } from "../../declarations/schema/pagination.ts";
import { describePaging, nextBodyValue, nextPageParams, pagingDocParams, pagingStyle, parsePage } from "./index.ts";

const scope = { seed: 7, epoch: 1, listKey: "candidate||", requestSeq: 40 };
const offset = Paging.parse({ style: "offset", offsetParam: "start", limitParam: "count", defaultLimit: 50, maxLimit: 100, overMax: "error" });
const page = Paging.parse({ style: "page", pageParam: "page", sizeParam: "per_page", firstPage: 1, defaultLimit: 25, maxLimit: 100 });
const cursor = Paging.parse({ style: "cursor", cursorParam: "cursor", limitParam: "limit", defaultLimit: 20, maxLimit: 50, ttlRequests: 5 });

describe("paging styles", () => {
  it("read where a page starts and how big it is, refusing bad values with the parameter named", () => {
    expect(parsePage(offset, new URLSearchParams("start=100&count=10"), scope)).toEqual({ ok: true, page: { offset: 100, limit: 10 } });
    expect(parsePage(offset, new URLSearchParams("count=101"), scope)).toMatchObject({ ok: false, param: "count" });
    expect(parsePage(page, new URLSearchParams("page=3&per_page=500"), scope)).toEqual({ ok: true, page: { offset: 200, limit: 100 } });
    expect(parsePage(page, new URLSearchParams("page=0"), scope)).toMatchObject({ ok: false, param: "page", message: "page must be an integer >= 1" });
    expect(parsePage(cursor, new URLSearchParams("cursor=garbage"), scope)).toMatchObject({ ok: false, param: "cursor" });
  });

  it("name the next page so that reading it lands where the last one ended; none after the last", () => {
    for (const p of [offset, page, cursor]) {
      const first = parsePage(p, new URLSearchParams(), scope);
      if (!first.ok) throw new Error("first page refused");
      const next = nextPageParams(p, first.page, first.page.limit, 1000, scope)!;
      const again = parsePage(p, new URLSearchParams(next), { ...scope, requestSeq: 41 });
      expect(again).toEqual({ ok: true, page: { offset: first.page.limit, limit: first.page.limit } });
      expect(nextPageParams(p, first.page, 3, 3, scope)).toBeNull();
    }
    expect(nextBodyValue(page, { page: "2", per_page: "25" })).toBe(2);
    expect(typeof nextBodyValue(cursor, nextPageParams(cursor, { offset: 0, limit: 20 }, 20, 100, scope)!)).toBe("string");
  });

  it("expire cursors after their lifetime in requests, and refuse cursors issued before a cutoff as invalidated", () => {
    const next = nextPageParams(cursor, { offset: 0, limit: 20 }, 20, 100, scope)!;
    const q = new URLSearchParams(next);
    expect(parsePage(cursor, q, { ...scope, requestSeq: 45 }).ok).toBe(true);
    expect(parsePage(cursor, q, { ...scope, requestSeq: 46 })).toMatchObject({ ok: false, message: "cursor has expired" });
    expect(parsePage(cursor, q, { ...scope, requestSeq: 41, cutoff: 41 })).toMatchObject({ ok: false, invalidated: true });
    expect(parsePage(cursor, q, { ...scope, epoch: 2, requestSeq: 41 })).toMatchObject({ ok: false, message: "cursor is not valid for this query" });
  });

  it("document their parameters and renames from one place", () => {
    expect(pagingDocParams(page).map((p) => `${p.name}:${p.role}:${p.description}`)).toEqual([
      "page:position:Page number; the first page is 1.",
      "per_page:size:Records per page (default 25, at most 100).",
    ]);
    expect(describePaging(offset, "data", "next", "total")[1]).toBe("Larger page sizes are refused with `400`.");
    const renamed = structuredClone(cursor);
    pagingStyle(renamed).renameParam(renamed, "cursor", "after");
    expect(pagingDocParams(renamed)[0].name).toBe("after");
    expect(pagingStyle(page).isStart(page, "1")).toBe(true);
    expect(pagingStyle(offset).isStart(offset, "50")).toBe(false);
  });

  it("serve the first page again and again to an unsorted list that needs a sort, and document the sort", () => {
    const sorted = Paging.parse({ style: "page", pageParam: "page", sizeParam: "size", firstPage: 1, defaultLimit: 10, maxLimit: 50, sortRequired: { param: "sort", value: "id" } });
    expect(parsePage(sorted, new URLSearchParams("page=3&size=10"), scope)).toEqual({ ok: true, page: { offset: 0, limit: 10 } });
    expect(parsePage(sorted, new URLSearchParams("page=3&size=10&sort=id"), scope)).toEqual({ ok: true, page: { offset: 20, limit: 10 } });
    expect(parsePage(sorted, new URLSearchParams("page=3&size=10&sort=name"), scope)).toEqual({ ok: true, page: { offset: 0, limit: 10 } });
    expect(pagingDocParams(sorted).map((p) => `${p.name}:${p.role}:${p.value ?? ""}`)).toEqual(["page:position:", "size:size:", "sort:sort:id"]);
    expect(describePaging(sorted, "data", "next", "total").at(-1)).toMatch(/send `sort=id` with every page/);
  });
});
