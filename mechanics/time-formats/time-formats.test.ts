import { describe, expect, it } from "vitest";
import { timeFormat, TIME_FORMATS } from "./index.ts";

describe("time formats", () => {
  it("write and read back the same instant where the format carries one", () => {
    const ms = Date.parse("2025-03-04T08:00:00Z");
    for (const f of TIME_FORMATS) {
      if (f.name === "local") continue;
      const wire = f.format(ms, { recordId: "cand_0007" });
      expect(f.parse(String(wire)), f.name).toBe(ms);
    }
  });

  it("local: two instants of a fall-back night share one wall time; the zone decides; watermarks must be instants", () => {
    const local = timeFormat("local");
    const first = Date.parse("2025-10-26T00:30:00Z");
    const second = Date.parse("2025-10-26T01:30:00Z");
    expect(local.format(first, { recordId: "s1", zone: "Europe/London" })).toBe("2025-10-26T01:30:00");
    expect(local.format(second, { recordId: "s2", zone: "Europe/London" })).toBe("2025-10-26T01:30:00");
    expect(local.format(second, { recordId: "s2", zone: "America/Chicago" })).toBe("2025-10-25T20:30:00");
    expect(local.parse("2025-10-26T01:30:00")).toBeNull();
    expect(local.parse("2025-10-26T01:30:00Z")).toBe(second);
    expect(local.check?.({})).toMatch(/needs the vendor's own zone/);
    expect(local.check?.({ zone: "Mars/Olympus" })).toMatch(/unknown time zone/);
    expect(local.check?.({ zone: "Europe/London" })).toBeNull();
    expect(local.docs.describe({ zone: "Europe/London", zoneField: "venue_tz" })).toMatch(/`venue_tz`/);
  });
});
