/**
 * The paging family's conformance suite: one contract, run for every style in
 * `PAGING_STYLES` against every paging object a vendor declares in that
 * style. A new style gets these tests by being in the registry (and fails
 * until a vendor declares it).
 */
import { describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import type { CursorScope } from "./define.ts";
import { PAGING_STYLES, type PagingLike, nextBodyValue, nextPageParams, pagingDocParams, pagingParams, pagingStyle, parsePage } from "./index.ts";
import { styleOf } from "./define.ts";

const scope: CursorScope = { seed: 7, epoch: 1, listKey: "candidate||", requestSeq: 40 };

/** Every paging object the vendors declare: the vendor's own and each resource's. */
const DECLARED = Object.values(VENDORS).flatMap((v) => [
  { where: v.id, paging: v.paging as PagingLike },
  ...v.resources.flatMap((r) => (r.paging ? [{ where: `${v.id}/${r.name}`, paging: r.paging as PagingLike }] : [])),
]);

/** A query with the sort a list needs, if it needs one. */
function query(p: PagingLike, params: Record<string, string> = {}): URLSearchParams {
  return new URLSearchParams({ ...(p.sortRequired ? { [p.sortRequired.param]: p.sortRequired.value } : {}), ...params });
}

describe.each(PAGING_STYLES.map((s) => [styleOf(s as never), s] as const))("paging style %s", (style) => {
  const declared = DECLARED.filter((d) => d.paging.style === style);

  it("is declared by at least one vendor", () => expect(declared.length).toBeGreaterThan(0));

  it("serves the first page from offset 0 at the default size when no position is sent", () => {
    for (const { where, paging } of declared) expect(parsePage(paging, query(paging), scope), where).toEqual({ ok: true, page: { offset: 0, limit: paging.defaultLimit } });
  });

  it("names a next page that, read back, starts where the last one ended; and none after the last", () => {
    for (const { where, paging } of declared) {
      const first = { offset: 0, limit: paging.defaultLimit };
      const next = nextPageParams(paging, first, first.limit, first.limit * 3, scope);
      expect(next, where).not.toBeNull();
      expect(parsePage(paging, query(paging, next!), { ...scope, requestSeq: scope.requestSeq + 1 }), where).toEqual({ ok: true, page: { offset: first.limit, limit: first.limit } });
      expect(nextPageParams(paging, first, 3, 3, scope), where).toBeNull();
    }
  });

  it("clamps or refuses a page size over the maximum, as declared, naming the size parameter", () => {
    for (const { where, paging } of declared) {
      const { size } = pagingParams(paging);
      const over = parsePage(paging, query(paging, { [size]: String(paging.maxLimit + 1) }), scope);
      const expected = paging.overMax === "clamp" ? { ok: true, page: { offset: 0, limit: paging.maxLimit } } : { ok: false, param: size };
      expect(over, where).toMatchObject(expected);
    }
  });

  it("refuses a position that is not one, naming the position parameter", () => {
    for (const { where, paging } of declared) {
      const { position } = pagingParams(paging);
      expect(parsePage(paging, query(paging, { [position]: "-x" }), scope), where).toMatchObject({ ok: false, param: position });
    }
  });

  it("tells a next page from the first, and gives the next field the type its docs say", () => {
    for (const { where, paging } of declared) {
      const s = pagingStyle(paging);
      const next = nextPageParams(paging, { offset: 0, limit: paging.defaultLimit }, paging.defaultLimit, paging.defaultLimit * 3, scope)!;
      expect(s.isStart(paging as never, next[pagingParams(paging).position]), where).toBe(false);
      const value = nextBodyValue(paging, next);
      expect(s.docs.nextType === "integer" ? Number.isInteger(value) : typeof value === "string", `${where}: next is ${JSON.stringify(value)}`).toBe(true);
    }
  });

  it("documents its position and size parameters (and the sort a list needs) by their declared names", () => {
    for (const { where, paging } of declared) {
      const { position, size } = pagingParams(paging);
      const docs = pagingDocParams(paging).map((p) => `${p.name}:${p.role}`);
      expect(docs, where).toEqual([`${position}:position`, `${size}:size`, ...(paging.sortRequired ? [`${paging.sortRequired.param}:sort`] : [])]);
    }
  });

  it("renames its position parameter in one place: the read and the docs follow", () => {
    for (const { where, paging } of declared) {
      const renamed = structuredClone(paging);
      pagingStyle(renamed).renameParam(renamed as never, pagingParams(paging).position, "wb_at");
      expect(pagingParams(renamed).position, where).toBe("wb_at");
      expect(pagingDocParams(renamed)[0].name, where).toBe("wb_at");
      const next = nextPageParams(renamed, { offset: 0, limit: renamed.defaultLimit }, renamed.defaultLimit, renamed.defaultLimit * 3, scope)!;
      expect(Object.keys(next), where).toContain("wb_at");
      expect(parsePage(renamed, query(renamed, next), { ...scope, requestSeq: scope.requestSeq + 1 }), where).toMatchObject({ ok: true, page: { offset: renamed.defaultLimit } });
    }
  });
});
