/**
 * The deletes family's conformance suite: one contract, run for every style
 * in `DELETE_STYLES` with every vendor that declares it. A new style gets
 * these tests by being in the registry (and fails until a vendor declares it).
 */
import { describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { type DeleteStyle, modeOf } from "./define.ts";
import { DELETE_STYLES } from "./index.ts";

const styles = DELETE_STYLES.map((s) => [modeOf(s as unknown as DeleteStyle), s as unknown as DeleteStyle] as const);
const declaring = (mode: string) => Object.values(VENDORS).filter((v) => v.deletes.mode === mode);

describe.each(styles)("delete style %s", (mode, style) => {
  const vendors = declaring(mode);

  it("is declared by at least one vendor, as its schema reads it", () => {
    expect(vendors.length).toBeGreaterThan(0);
    for (const v of vendors) expect(style.schema.safeParse(v.deletes).success, v.id).toBe(true);
  });

  it("marks deleted records with a flag exactly when it lets a client see them (in a list or a read)", () => {
    for (const v of vendors) expect(typeof style.flagField?.(v.deletes), v.id).toBe(style.listsDeleted || style.read.serve ? "string" : "undefined");
  });

  it("answers a read of a deleted record by serving it or with 404/410 and an error naming the record", () => {
    const answer = style.read.serve ? { serve: true } : { serve: false, status: style.read.status, code: style.read.code, named: style.read.message("candidate cand_1").includes("cand_1") };
    expect(answer).toEqual(style.read.serve ? { serve: true } : { serve: false, status: expect.toSatisfy((s: number) => s === 404 || s === 410), code: expect.stringMatching(/\w/), named: true });
  });

  it("says how deletes show in the docs", () => {
    for (const v of vendors) expect(style.docs.clause(v.deletes).length, v.id).toBeGreaterThan(10);
  });
});

const feeds = styles.filter(([, s]) => s.feed);

describe("delete feeds", () => {
  it("are given by at least one style", () => expect(feeds.length).toBeGreaterThan(0));

  it.each(feeds)("%s: a feed path (or a gateway operation); each entry names the record and its entity, with the fields its schema requires", (mode, style) => {
    const feed = style.feed!;
    for (const v of declaring(mode)) {
      // A path of its own, or none: the feed is then a gateway's operation.
      const path = feed.path(v.deletes);
      expect(path === undefined || path.startsWith("/"), `${v.id}: ${path}`).toBe(true);
      const entry = feed.entry(v.deletes, { id: "rec_1", entity: "candidate", deletedAt: "2025-01-01T00:00:00Z" });
      expect(Object.values(entry), v.id).toEqual(expect.arrayContaining(["rec_1", "candidate", "2025-01-01T00:00:00Z"]));
      const schema = feed.entrySchema(v.deletes, { type: "string" });
      expect(Object.keys(entry).sort(), v.id).toEqual(Object.keys(schema.properties).sort());
      expect(
        schema.required.filter((k) => !(k in entry)),
        v.id,
      ).toEqual([]);
    }
  });
});
