import { describe, expect, it } from "vitest";
import { DeclarationError, parseVendor } from "../../declarations/schema/define.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { writeColumn } from "./define.ts";
import { exportStyle } from "./index.ts";

/** RecruitOS with its exports, to break one piece at a time. */
function base(): any {
  return structuredClone(VENDORS.recruitos);
}

function errorOf(input: unknown): string {
  try {
    parseVendor(input, "vendor test");
  } catch (err) {
    expect(err).toBeInstanceOf(DeclarationError);
    return (err as Error).message;
  }
  throw new Error("declaration was accepted");
}

describe("a timestamp column written day first", () => {
  it("writes the API's instant as DD/MM/YYYY HH:MM:SS in UTC, whatever its wire format", () => {
    expect(writeColumn("2025-03-07T14:05:09Z", "dmy")).toBe("07/03/2025 14:05:09");
    expect(writeColumn("2025-03-07T23:30:00-05:00", "dmy")).toBe("08/03/2025 04:30:00");
    expect(writeColumn(1_741_356_309, "dmy")).toBe("07/03/2025 14:05:09");
    expect(writeColumn(1_741_356_309_000, "dmy")).toBe("07/03/2025 14:05:09");
    expect(writeColumn(null, "dmy")).toBeNull();
    expect(writeColumn("not a time", "dmy")).toBe("not a time");
  });

  it("is placemint's fee_corrections Recorded, and no other declared column", () => {
    const written = Object.values(VENDORS).flatMap((v) => (v.exports?.resources ?? []).flatMap((x) => x.columns.filter((c) => c.written).map((c) => `${v.id}.${x.name}.${c.header}:${c.written}`)));
    expect(written).toEqual(["placemint.fee_corrections.Recorded:dmy"]);
  });
});

describe("the job export style", () => {
  it("counts readiness in status reads and expiry in downloads, never in time", () => {
    const e = { ...VENDORS.placemint.exports! };
    const style = exportStyle(e);
    expect([0, 1, 2, 3, 4].map((polls) => style.phase(e, polls, 0))).toEqual(["queued", "running", "running", "running", "ready"]);
    expect(style.phase(e, 9, 1)).toBe("ready");
    expect(style.phase(e, 9, 2)).toBe("expired");
    expect(style.downloadLimit(e)).toBe(2);
    const never = VENDORS.recruitos.exports!;
    expect(exportStyle(never).phase(never, 3, 1000)).toBe("ready");
    expect(exportStyle(never).downloadLimit(never)).toBeNull();
  });

  it("names a job's fields in the vendor's casing and writes the declared format", () => {
    const ros = VENDORS.recruitos.exports!;
    const pm = VENDORS.placemint.exports!;
    expect(exportStyle(ros).fields(ros).downloadUrl).toBe("downloadUrl");
    expect(exportStyle(pm).fields(pm).downloadUrl).toBe("download_url");
    expect(exportStyle(pm).format(pm)).toEqual({ delimiter: ";", bom: true, lineEnding: "\r\n" });
  });

  it.each<[string, (v: any) => void, RegExp]>([
    [
      "a column of a field the resource lacks",
      (v) => v.exports.resources[0].columns.push({ header: "Shoe size", field: "shoeSize" }),
      /exports\.resources\[0\]\.columns\[12\]\.field: "candidate" has no field "shoeSize"/,
    ],
    ["a duplicate column header", (v) => v.exports.resources[0].columns.push({ header: "Email", field: "phone" }), /duplicate column "Email"/],
    ["an unknown entity", (v) => (v.exports.resources[1].resource = "ghost"), /exports\.resources\[1\]\.resource: unknown entity "ghost"/],
    ["a status path without :id", (v) => (v.exports.statusPath = "/api/v3/reporting/exports/status"), /exports\.statusPath: a status path needs :id/],
    ["a download path on a route already used", (v) => (v.exports.downloadPath = "/api/v3/candidates/:id"), /route GET \/api\/v3\/candidates\/:id is already used/],
    [
      "an incremental export of a resource without the filter",
      (v) => v.exports.resources.push({ name: "activities", resource: "activity", incremental: true, columns: [{ header: "ID", field: "id" }] }),
      /"activity" does not honour an incremental filter/,
    ],
    ["a delimiter outside the allowed ones", (v) => (v.exports.delimiter = "|"), /exports\.delimiter/],
    [
      "a column written day first that holds no timestamp",
      (v) => v.exports.resources[0].columns.push({ header: "Mail", field: "email", written: "dmy" }),
      /exports\.resources\[0\]\.columns\[12\]\.written: "email" is no timestamp/,
    ],
  ])("rejects %s, naming the path", (_name, breakIt, message) => {
    const v = base();
    breakIt(v);
    expect(errorOf(v)).toMatch(message);
  });
});
