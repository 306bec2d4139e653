/**
 * A re-skinned release, end to end on the real tree: written twice with one
 * key it is the same, with another key it differs; the workspaces its own
 * code writes hold none of the original skin's distinctive strings, while
 * the same workspaces written by this tree are full of them (the scan can
 * fail). CI's `npm run validate:skin` adds every probe bar of every task.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanForLeaks } from "../../scripts/skin/leaks.ts";
import { makeRelease, REPO_ROOT } from "../../scripts/skin/make-release.ts";
import { vocabularyPattern } from "../../scripts/skin/rewrite.ts";
import { writeWorkspaces } from "../../scripts/skin/workspaces.ts";

const TASKS = ["task-0025", "task-0047", "task-0052"];
const base = mkdtempSync(join(tmpdir(), "wb-skin-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function digest(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else h.update(relative(dir, full)).update("\0").update(readFileSync(full)).update("\0");
    }
  };
  walk(dir);
  return h.digest("hex");
}

describe("a re-skinned release", () => {
  const a = makeRelease({ key: "test-key", out: join(base, "a") });

  it("is the same for the same key and differs for another", () => {
    makeRelease({ key: "test-key", out: join(base, "a2") });
    const other = makeRelease({ key: "another-key", out: join(base, "b") });
    expect(digest(join(base, "a2"))).toBe(digest(join(base, "a")));
    expect(other.skin.tag).not.toBe(a.skin.tag);
    expect(digest(join(base, "b"))).not.toBe(digest(join(base, "a")));
    expect(a.summary.releaseId).toBe(`r1x${a.skin.tag}`);
    expect(existsSync(join(base, "a", "declarations", "vendors", "placemint.ts"))).toBe(false);
  });

  it("hands agents workspaces with none of the original names, where this tree's are full of them", () => {
    const pattern = vocabularyPattern(a.skin);
    symlinkSync(join(REPO_ROOT, "node_modules"), join(base, "a", "node_modules"), "dir");
    const skinned = join(base, "ws-skinned");
    const r = spawnSync(process.execPath, ["scripts/skin/workspaces.ts", skinned, ...TASKS], { cwd: join(base, "a"), encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const clean = scanForLeaks(skinned, pattern);
    expect(clean.files).toBeGreaterThan(30);
    expect(clean.leaks).toEqual([]);
    const original = join(base, "ws-original");
    expect(writeWorkspaces(original, TASKS)).toEqual(TASKS);
    const leaky = scanForLeaks(original, pattern, 100_000);
    expect(leaky.leaks.map((l) => l.found.toLowerCase())).toEqual(expect.arrayContaining(["paygrade", "placemint", "talentforge", "onboardly"]));
  }, 120_000);
});
