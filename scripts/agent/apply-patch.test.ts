import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyUntrustedPatch } from "./apply-patch.ts";
import { takePatch } from "./take-patch.ts";
import { initBaselineRepo } from "./workspace.ts";

function setup() {
  const root = mkdtempSync(join(tmpdir(), "wb-apply-"));
  const starter = join(root, "starter");
  mkdirSync(join(starter, "src"), { recursive: true });
  writeFileSync(join(starter, "src", "main.ts"), "console.log(1);\n");
  writeFileSync(join(starter, "README.md"), "starter\n");
  return { root, starter, target: join(root, "target") };
}

/** A patch taken the way an attempt's is: from an edited copy of the starter. */
function patchOf(starter: string, root: string, edit: (dir: string) => void): string {
  const agent = join(root, "agent");
  initBaselineRepo(agent, starter);
  edit(agent);
  const taken = takePatch(starter, agent);
  if (!taken.ok) throw new Error(taken.reason);
  return taken.patch;
}

const newFile = (path: string, mode = "100644") => `diff --git a/${path} b/${path}\nnew file mode ${mode}\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+x\n`;

describe("applyUntrustedPatch", () => {
  it("applies a patch (text and binary) to a fresh copy of the starter and leaves no .git", () => {
    const { root, starter, target } = setup();
    const patch = patchOf(starter, root, (d) => {
      writeFileSync(join(d, "src", "main.ts"), "console.log(2);\n");
      writeFileSync(join(d, "blob.bin"), Buffer.from([0, 1, 2, 255, 0, 7]));
    });
    expect(applyUntrustedPatch(starter, patch, target)).toEqual({ ok: true });
    expect(readFileSync(join(target, "src", "main.ts"), "utf8")).toBe("console.log(2);\n");
    expect(readFileSync(join(target, "blob.bin"))).toEqual(Buffer.from([0, 1, 2, 255, 0, 7]));
    expect(readFileSync(join(target, "README.md"), "utf8")).toBe("starter\n");
    expect(existsSync(join(target, ".git"))).toBe(false);
    // The starter itself is untouched.
    expect(readFileSync(join(starter, "src", "main.ts"), "utf8")).toBe("console.log(1);\n");
  });

  it("takes an empty patch as the starter as is", () => {
    const { starter, target } = setup();
    expect(applyUntrustedPatch(starter, "", target)).toEqual({ ok: true });
    expect(readFileSync(join(target, "src", "main.ts"), "utf8")).toBe("console.log(1);\n");
  });

  it("refuses text that is no patch, and a patch of another tree, with git's reason, leaving nothing behind", () => {
    const { starter, target } = setup();
    const garbage = applyUntrustedPatch(starter, "this is not a diff\n", target);
    expect(garbage).toEqual({ ok: false, reason: expect.stringMatching(/^the patch does not apply to the starter: error: No valid patches in input/) });
    expect(existsSync(target)).toBe(false);
    const other = "diff --git a/src/main.ts b/src/main.ts\n--- a/src/main.ts\n+++ b/src/main.ts\n@@ -1 +1 @@\n-console.log(99);\n+console.log(2);\n";
    expect(applyUntrustedPatch(starter, other, target)).toEqual({ ok: false, reason: expect.stringMatching(/does not apply to the starter: error: patch failed: src\/main\.ts:1/) });
  });

  it("refuses a patch that makes a symbolic link, whether written by hand or taken from a tree", () => {
    const { root, starter, target } = setup();
    const linked = patchOf(starter, root, (d) => symlinkSync("/etc/passwd", join(d, "passwd")));
    expect(applyUntrustedPatch(starter, linked, target)).toEqual({ ok: false, reason: expect.stringMatching(/makes a symbolic link \(mode 120000\)/) });
    expect(applyUntrustedPatch(starter, newFile("up", "120000"), target)).toEqual({ ok: false, reason: expect.stringMatching(/symbolic link/) });
    const submodule = "diff --git a/sub b/sub\nnew file mode 160000\nindex 0000000..1111111\n--- /dev/null\n+++ b/sub\n@@ -0,0 +1 @@\n+Subproject commit 1111111111111111111111111111111111111111\n";
    expect(applyUntrustedPatch(starter, submodule, target)).toEqual({ ok: false, reason: expect.stringMatching(/submodule/) });
    expect(existsSync(join(root, "etc"))).toBe(false);
  });

  it("refuses paths outside the repository and under .git", () => {
    const { root, starter, target } = setup();
    expect(applyUntrustedPatch(starter, newFile("../escaped"), target)).toEqual({ ok: false, reason: expect.stringMatching(/"\.\.\/escaped", which leaves the repository/) });
    expect(existsSync(join(root, "escaped"))).toBe(false);
    expect(applyUntrustedPatch(starter, newFile(".git/hooks/post-checkout"), target)).toEqual({ ok: false, reason: expect.stringMatching(/under \.git/) });
    expect(applyUntrustedPatch(starter, newFile("src/.GIT/config"), target)).toEqual({ ok: false, reason: expect.stringMatching(/under \.git/) });
    const renamed = "diff --git a/README.md b/.git/info/attributes\nsimilarity index 100%\nrename from README.md\nrename to .git/info/attributes\n";
    expect(applyUntrustedPatch(starter, renamed, target)).toEqual({ ok: false, reason: expect.stringMatching(/under \.git/) });
  });

  it("refuses a patch over the cap before applying anything", () => {
    const { starter, target } = setup();
    const big = newFile("big.txt").replace("+x\n", `+${"y".repeat(8 * 1024 ** 2)}\n`);
    expect(applyUntrustedPatch(starter, big, target)).toEqual({ ok: false, reason: expect.stringMatching(/^the patch is \d+ bytes, over the 8388608-byte cap$/) });
    expect(existsSync(target)).toBe(false);
  });

  it("refuses binary hunks that declare more than 256 MiB inflated, before applying anything", () => {
    const { root, starter, target } = setup();
    const bin = patchOf(starter, root, (d) => writeFileSync(join(d, "zeros.bin"), Buffer.alloc(4096)));
    expect(bin).toMatch(/^literal 4096$/m);
    expect(applyUntrustedPatch(starter, bin, join(root, "small"))).toEqual({ ok: true });
    const bomb = bin.replace(/^literal 4096$/m, `literal ${256 * 1024 ** 2 + 1}`);
    expect(applyUntrustedPatch(starter, bomb, target)).toEqual({ ok: false, reason: "the patch's binary hunks inflate to more than 268435456 bytes" });
    expect(existsSync(target)).toBe(false);
  });

  it("writes regular files only, even where a link would have been", () => {
    const { starter, target } = setup();
    expect(applyUntrustedPatch(starter, newFile("docs/note.txt"), target)).toEqual({ ok: true });
    expect(lstatSync(join(target, "docs", "note.txt")).isFile()).toBe(true);
  });
});
