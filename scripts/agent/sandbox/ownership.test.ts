import { lstatSync, mkdirSync, mkdtempSync, statSync, symlinkSync, writeFileSync, chownSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chownTreeNoFollow } from "./ownership.ts";

/** Re-owning needs root; CI and the sandbox's own use of it run as root. */
describe.skipIf(process.getuid?.() !== 0)("chownTreeNoFollow", () => {
  it("re-owns the tree, links themselves, and nothing they point at; a tree of self-links ends", () => {
    const root = mkdtempSync(join(tmpdir(), "wb-own-"));
    const victim = join(root, "victim");
    mkdirSync(victim);
    writeFileSync(join(victim, "keep.txt"), "x");
    chownSync(victim, 4242, 4242);
    chownSync(join(victim, "keep.txt"), 4242, 4242);
    const tree = join(root, "tree");
    mkdirSync(join(tree, "output"), { recursive: true });
    writeFileSync(join(tree, "output", "rows.json"), "[]");
    symlinkSync(victim, join(tree, "victim-link"));
    symlinkSync(victim, join(tree, "output", "victim-link"));
    symlinkSync(join(victim, "keep.txt"), join(tree, "file-link"));
    // Twenty self-links: a walk that followed them would visit 20^depth paths.
    for (let i = 0; i < 20; i++) symlinkSync(".", join(tree, `loop-${i}`));
    const started = performance.now();
    chownTreeNoFollow(tree, 5151, 5151);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(statSync(victim).uid).toBe(4242);
    expect(statSync(join(victim, "keep.txt")).uid).toBe(4242);
    expect(statSync(join(tree, "output", "rows.json")).uid).toBe(5151);
    expect(lstatSync(join(tree, "victim-link")).uid).toBe(5151);
    expect(lstatSync(join(tree, "loop-7")).uid).toBe(5151);
  });
});
