/**
 * The incremental family's conformance suite: one contract, run for every
 * style in `INCREMENTAL_STYLES` with every vendor that declares it. A new
 * style gets these tests by being in the registry (and fails until a vendor
 * declares it).
 */
import { describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { timeFormat } from "../time-formats/index.ts";
import { type IncrementalStyle, incrementalStyleOf } from "./define.ts";
import { INCREMENTAL_STYLES } from "./index.ts";

const styles = INCREMENTAL_STYLES.map((s) => [incrementalStyleOf(s as unknown as IncrementalStyle), s as unknown as IncrementalStyle] as const);
const AT = Date.parse("2025-03-04T08:00:00Z");

describe.each(styles)("incremental style %s", (name, style) => {
  const vendors = Object.values(VENDORS).flatMap((v) => (v.incremental?.style === name ? [{ v, inc: v.incremental }] : []));

  it("is declared by at least one vendor, with a parameter name", () => {
    expect(vendors.length).toBeGreaterThan(0);
    for (const { v, inc } of vendors) expect(style.param(inc), v.id).toMatch(/^\w[\w.\-[\]]*$/);
  });

  it("reads a watermark written in the vendor's own time format as that instant", () => {
    for (const { v, inc } of vendors) {
      const f = timeFormat(v.clock.format);
      // A format that writes wall times reads only instants: the watermark is sent as one.
      const raw = f.parse(String(f.format(AT, { recordId: "r1", zone: v.clock.zone }))) === null ? new Date(AT).toISOString() : String(f.format(AT, { recordId: "r1", zone: v.clock.zone }));
      expect(style.read(inc, raw, f.parse, v.clock.format), `${v.id} ${raw}`).toMatchObject({ ok: true, since: { ms: AT } });
    }
  });

  it("refuses a watermark that is no instant, naming its parameter", () => {
    for (const { v, inc } of vendors) {
      const f = timeFormat(v.clock.format);
      const read = style.read(inc, "yesterday", f.parse, v.clock.format);
      expect(read, v.id).toMatchObject({ ok: false, message: expect.stringContaining(style.param(inc)) });
    }
  });

  it("accepts each of its vendors' resources that honour it, and says what it filters in the docs", () => {
    for (const { v, inc } of vendors) {
      const honouring = v.resources.filter((r) => r.incremental);
      expect(
        honouring.map((r) => style.checkResource?.(inc, r) ?? null),
        v.id,
      ).toEqual(honouring.map(() => null));
      expect(style.docs.describe(inc).length, v.id).toBeGreaterThan(10);
    }
  });
});
