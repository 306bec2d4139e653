import { describe, expect, it } from "vitest";
import { localToUnixS } from "./local-time.ts";

describe("localToUnixS", () => {
  it("uses the zone's offset on the date itself, not today's", () => {
    // New York: EDT (UTC-4) until 2 November 2025, EST (UTC-5) after.
    expect(localToUnixS("2025-10-31 15:30", "America/New_York")).toBe(Date.UTC(2025, 9, 31, 19, 30) / 1000);
    expect(localToUnixS("2025-11-03 09:00", "America/New_York")).toBe(Date.UTC(2025, 10, 3, 14, 0) / 1000);
    // London is back on GMT from 26 October 2025.
    expect(localToUnixS("2025-10-27 10:00", "Europe/London")).toBe(Date.UTC(2025, 9, 27, 10, 0) / 1000);
  });

  it("keeps half-hour offsets", () => {
    expect(localToUnixS("2025-10-28 11:00", "Asia/Kolkata")).toBe(Date.UTC(2025, 9, 28, 5, 30) / 1000);
  });

  it("refuses what is not a local time or a zone", () => {
    expect(localToUnixS("28/10/2025 11:00", "Asia/Kolkata")).toBeNull();
    expect(localToUnixS("2025-10-28 11:00", "Mars/Olympus")).toBeNull();
  });
});
