import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, renameSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonRows } from "../../declarations/schema/output-contract.ts";
import { OUTPUT_MAX_BYTES, readOutput as readByName } from "./output-file.ts";

/** Any JSON array of rows: these tests are about where a file is and what it is, not its rows. */
const readOutput = (dir: string, name: string) => readByName(dir, name, jsonRows(z.unknown()));

function outputDir(): { dir: string; secret: string } {
  const root = mkdtempSync(join(tmpdir(), "wb-output-"));
  const secret = join(root, "secret.json");
  writeFileSync(secret, JSON.stringify({ canary: "do-not-read" }), { mode: 0o600 });
  const dir = join(root, "output");
  mkdirSync(dir);
  return { dir, secret };
}

describe("readOutput", () => {
  it("reads a regular file inside the output folder", () => {
    const { dir } = outputDir();
    writeFileSync(join(dir, "rows.json"), "[1,2]");
    expect(readOutput(dir, "rows.json")).toEqual({ present: true, parsed: true, value: [1, 2] });
    expect(readOutput(dir, "missing.json")).toEqual({ present: false });
  });

  it("never reads through a link", () => {
    const { dir, secret } = outputDir();
    symlinkSync(secret, join(dir, "rows.json"));
    const r = readOutput(dir, "rows.json");
    expect(r).toEqual({ present: true, parsed: false, error: "the output is a symbolic link, not a regular file" });
    expect(JSON.stringify(r)).not.toContain("do-not-read");
  });

  it("refuses a file reached through an output folder swapped for a link", () => {
    const { dir } = outputDir();
    const elsewhere = mkdtempSync(join(tmpdir(), "wb-elsewhere-"));
    writeFileSync(join(elsewhere, "rows.json"), "[1]");
    renameSync(dir, `${dir}.gone`);
    symlinkSync(elsewhere, dir);
    expect(readOutput(dir, "rows.json")).toEqual({ present: true, parsed: false, error: "the output is not inside the output folder" });
  });

  it("reports a fifo or a folder without opening it for reading, and refuses a file over the cap", () => {
    const { dir } = outputDir();
    execFileSync("mkfifo", [join(dir, "pipe.json")]);
    mkdirSync(join(dir, "dir.json"));
    writeFileSync(join(dir, "big.json"), "");
    truncateSync(join(dir, "big.json"), OUTPUT_MAX_BYTES + 1);
    expect(readOutput(dir, "pipe.json")).toEqual({ present: true, parsed: false, error: "the output is not a regular file" });
    expect(readOutput(dir, "dir.json")).toEqual({ present: true, parsed: false, error: "the output is not a regular file" });
    expect(readOutput(dir, "big.json")).toMatchObject({ present: true, parsed: false, error: expect.stringMatching(/over the \d+-byte cap/) });
  });
});
