import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkOut, RELEASE_FILE, skinnedReleaseId, writeRelease } from "./release-tree.ts";
import type { TreeFile } from "./tree.ts";

const text = (path: string, body: string, executable = false): TreeFile => ({ path, bytes: Buffer.from(body), executable, text: body });
const rewrite = (s: string) => s.replaceAll("placemint", "sablepath");
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), "wb-release-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("writing a re-skinned release", () => {
  it("rewrites paths and text, sets the release id, keeps binaries, the lock file and executable bits, leaves the original's records out", () => {
    const out = join(tmp(), "release");
    const binary = Buffer.from([0x25, 0x50, 0x00, 0x70, 0x6c, 0x61, 0x63, 0x65, 0x6d, 0x69, 0x6e, 0x74]);
    const files: TreeFile[] = [
      text("declarations/vendors/placemint.ts", 'export default { id: "placemint" };\n'),
      text(RELEASE_FILE, 'export const RELEASE_ID = "r1";\n'),
      text("package-lock.json", '{ "placemint": 1 }\n'),
      text(".ci/run", "#!/bin/sh\necho placemint\n", true),
      text("bench-results/mutants.json", '{ "placemint": 1 }\n'),
      { path: "declarations/tasks/t/offer.pdf", bytes: binary, executable: false, text: null },
    ];
    const summary = writeRelease(files, out, rewrite, { from: "r1", to: skinnedReleaseId("r1", "abc123") });
    expect(summary).toEqual({ files: 5, rewritten: 3, renamedPaths: 1, leftOut: 1, releaseId: "r1xabc123" });
    expect(readFileSync(join(out, "declarations/vendors/sablepath.ts"), "utf8")).toBe('export default { id: "sablepath" };\n');
    expect(readFileSync(join(out, RELEASE_FILE), "utf8")).toBe('export const RELEASE_ID = "r1xabc123";\n');
    expect(readFileSync(join(out, "package-lock.json"), "utf8")).toBe('{ "placemint": 1 }\n');
    expect(readFileSync(join(out, "declarations/tasks/t/offer.pdf")).equals(binary)).toBe(true);
    expect(statSync(join(out, ".ci/run")).mode & 0o111).not.toBe(0);
    expect(statSync(join(out, "bench-results"), { throwIfNoEntry: false })).toBeUndefined();
  });
  it("refuses a release file that does not declare the release id, and two files renamed onto one path", () => {
    expect(() => writeRelease([text(RELEASE_FILE, "export const X = 1;\n")], join(tmp(), "a"), rewrite, { from: "r1", to: "r1xabc123" })).toThrow(/RELEASE_ID/);
    expect(() => writeRelease([text("a/placemint.ts", "1"), text("a/sablepath.ts", "2")], join(tmp(), "b"), rewrite, { from: "r1", to: "r1xabc123" })).toThrow(/two files/);
  });
  it("writes only into a new or empty folder outside the checkout or under .wirebench/", () => {
    const root = tmp();
    const full = tmp();
    writeFileSync(join(full, "x"), "1");
    expect(() => checkOut(full, root)).toThrow(/not empty/);
    expect(() => checkOut(root, root)).toThrow(/checkout itself/);
    expect(() => checkOut(join(root, "declarations"), root)).toThrow(/inside the checkout/);
    mkdirSync(join(root, ".wirebench"));
    expect(() => checkOut(join(root, ".wirebench", "skin"), root)).not.toThrow();
    expect(() => checkOut(join(tmp(), "new"), root)).not.toThrow();
  });
});
