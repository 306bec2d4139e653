/**
 * The time-formats family's conformance suite: one contract, run for every
 * format in `TIME_FORMATS` with every vendor clock that declares it. A new
 * format gets these tests by being in the registry (and fails until a vendor
 * declares it).
 */
import { describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { TIME_FORMATS } from "./index.ts";

/** Whole-second instants: a summer and a winter one, a leap day, and both instants of a fall-back night in Europe and America. */
const INSTANTS = ["2025-03-04T08:00:00Z", "2025-07-14T23:59:59Z", "2024-02-29T12:00:00Z", "2025-10-26T00:30:00Z", "2025-10-26T01:30:00Z", "2025-11-02T06:30:00Z"].map(Date.parse);
const RECORDS = ["cand_0001", "cand_0007", "42", "01J0000000000000000000000Z"];

describe.each(TIME_FORMATS.map((f) => [f.name, f] as const))("time format %s", (name, f) => {
  const clocks = Object.values(VENDORS)
    .filter((v) => v.clock.format === name)
    .map((v) => ({ where: v.id, clock: v.clock }));

  it("is declared by at least one vendor clock, and accepts each such clock", () => {
    expect(clocks.length).toBeGreaterThan(0);
    for (const { where, clock } of clocks) expect(f.check?.(clock) ?? null, where).toBeNull();
  });

  it("reads back what it writes as the same instant, or refuses it; never as another instant", () => {
    for (const { where, clock } of clocks)
      for (const ms of INSTANTS)
        for (const recordId of RECORDS) {
          const wire = f.format(ms, { recordId, zone: clock.zone });
          expect(["number", "string"], where).toContain(typeof wire);
          expect([ms, null], `${where} ${recordId} ${wire}`).toContain(f.parse(String(wire)));
        }
  });

  it("writes the same instant the same way for the same record (a pure function)", () => {
    for (const { clock } of clocks) for (const ms of INSTANTS) expect(f.format(ms, { recordId: "r1", zone: clock.zone })).toEqual(f.format(ms, { recordId: "r1", zone: clock.zone }));
  });

  it("refuses text that is no instant", () => {
    for (const raw of ["", "yesterday", "2025-13-45T99:00:00Z", "12abc", "-5"]) expect(f.parse(raw), JSON.stringify(raw)).toBeNull();
  });

  it("describes itself in the docs, with a JSON Schema of its values", () => {
    for (const { where, clock } of clocks) expect(f.docs.describe(clock).length, where).toBeGreaterThan(10);
    expect(["string", "integer", "number"]).toContain(f.docs.schema.type);
  });
});
