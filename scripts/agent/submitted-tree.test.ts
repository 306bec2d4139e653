import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { submittedTree } from "./submitted-tree.ts";

function setup() {
  const root = mkdtempSync(join(tmpdir(), "wb-submitted-"));
  const starter = join(root, "starter");
  mkdirSync(join(starter, "src"), { recursive: true });
  writeFileSync(join(starter, "src", "main.ts"), "console.log(1);\n");
  // A folder as an agent leaves it: edited source, a new file, state and output its .gitignore excludes.
  const folder = join(root, "folder");
  mkdirSync(join(folder, "src"), { recursive: true });
  mkdirSync(join(folder, "state"));
  mkdirSync(join(folder, "output"));
  writeFileSync(join(folder, "src", "main.ts"), "console.log(2);\n");
  writeFileSync(join(folder, "src", "client.ts"), "export const x = 1;\n");
  writeFileSync(join(folder, ".gitignore"), "state/\noutput/\n");
  writeFileSync(join(folder, "state", "watermark.json"), '{"since":"2025-10-07T14:04:35Z"}\n');
  writeFileSync(join(folder, "output", "rollup.csv"), "id\n1\n");
  return { root, starter, folder, target: join(root, "target") };
}

describe("submittedTree", () => {
  it("is the starter plus the folder's changes, without what its .gitignore excludes", () => {
    const { starter, folder, target } = setup();
    expect(submittedTree(starter, folder, target)).toEqual({ ok: true });
    expect(readFileSync(join(target, "src", "main.ts"), "utf8")).toBe("console.log(2);\n");
    expect(readFileSync(join(target, "src", "client.ts"), "utf8")).toBe("export const x = 1;\n");
    expect(existsSync(join(target, ".gitignore"))).toBe(true);
    expect(existsSync(join(target, "state"))).toBe(false);
    expect(existsSync(join(target, "output"))).toBe(false);
    expect(existsSync(join(target, ".git"))).toBe(false);
  });

  it("keeps state the folder does not ignore (the submission decides what it ships)", () => {
    const { starter, folder, target } = setup();
    writeFileSync(join(folder, ".gitignore"), "output/\n");
    expect(submittedTree(starter, folder, target)).toEqual({ ok: true });
    expect(readFileSync(join(target, "state", "watermark.json"), "utf8")).toContain("2025-10-07");
  });

  it("refuses a folder holding a symbolic link, with the reason", () => {
    const { starter, folder, target } = setup();
    symlinkSync("/etc/passwd", join(folder, "src", "secrets.ts"));
    const r = submittedTree(starter, folder, target);
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.reason).toMatch(/link/);
    expect(existsSync(target)).toBe(false);
  });
});
