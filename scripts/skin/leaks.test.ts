import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanForLeaks } from "./leaks.ts";

const dir = mkdtempSync(join(tmpdir(), "wb-leaks-"));
const outside = mkdtempSync(join(tmpdir(), "wb-leaks-outside-"));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("the leak scan", () => {
  it("reports every original string with its file and line, and the file names too", () => {
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "PROBLEM.md"), "Sync from SablePath.\nThe old PlaceMint ids start plc_.\n");
    writeFileSync(join(dir, "docs", "placemint.md"), "nothing\n");
    const { leaks, files } = scanForLeaks(dir, /placemint|plc_/gi);
    expect(files).toBe(2);
    expect(leaks).toEqual(
      expect.arrayContaining([
        { file: "PROBLEM.md", line: 2, found: "PlaceMint" },
        { file: "PROBLEM.md", line: 2, found: "plc_" },
        { file: join("docs", "placemint.md"), line: 0, found: "placemint" },
      ]),
    );
    expect(leaks).toHaveLength(3);
  });
  it("skips git's object store and binary files, and never follows a link out of the folder", () => {
    const clean = mkdtempSync(join(tmpdir(), "wb-leaks-clean-"));
    try {
      mkdirSync(join(clean, ".git"));
      writeFileSync(join(clean, ".git", "config"), "placemint");
      writeFileSync(join(clean, "blob.bin"), Buffer.from("placemint\0"));
      writeFileSync(join(outside, "secret.md"), "placemint");
      symlinkSync(outside, join(clean, "elsewhere"));
      symlinkSync(join(outside, "secret.md"), join(clean, "secret.md"));
      expect(scanForLeaks(clean, /placemint/gi)).toEqual({ leaks: [], files: 0 });
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });
});
