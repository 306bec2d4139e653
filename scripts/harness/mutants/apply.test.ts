import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyMutant, occurrences, readTree } from "./apply.ts";

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-mutant-"));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(dir, p, ".."), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

describe("applying a mutant to gold's tree", () => {
  it("replaces the text where it occurs as often as the patch says, and prepends a prelude", () => {
    const dir = tree({ "src/main.ts": "a(); b(); a();\n", "src/x.ts": "keep\n" });
    applyMutant(dir, {
      id: "m",
      mistake: "a is never called",
      patches: [
        { file: "src/main.ts", find: "a();", replace: "", count: 2 },
        { file: "src/main.ts", prepend: "// first" },
      ],
    });
    expect(readFileSync(join(dir, "src/main.ts"), "utf8")).toBe("// first\n b(); \n");
    expect(readTree(dir)).toEqual(
      new Map([
        ["src/main.ts", "// first\n b(); \n"],
        ["src/x.ts", "keep\n"],
      ]),
    );
  });

  it("refuses a patch that no longer fits gold: text found another number of times, a missing file, a path outside", () => {
    const dir = tree({ "src/main.ts": "a(); a();\n" });
    const one = (patch: { file: string; find: string; replace: string; count?: number }) => () => applyMutant(dir, { id: "m", mistake: "a mistake here", patches: [patch] });
    expect(one({ file: "src/main.ts", find: "a();", replace: "" })).toThrow(/2 times, not 1/);
    expect(one({ file: "src/main.ts", find: "b();", replace: "" })).toThrow(/0 times, not 1/);
    expect(one({ file: "src/gone.ts", find: "a();", replace: "" })).toThrow(/not a file of gold/);
    expect(one({ file: "../escape.ts", find: "a();", replace: "" })).toThrow(/outside the connector/);
    expect(readFileSync(join(dir, "src/main.ts"), "utf8")).toBe("a(); a();\n");
  });

  it("counts occurrences without overlap", () => {
    expect(occurrences("aaaa", "aa")).toBe(2);
    expect(occurrences("abc", "d")).toBe(0);
  });
});
