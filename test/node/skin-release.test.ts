/**
 * A re-skinned release, end to end on the real tree: one key gives one skin,
 * another key another; the workspaces its own
 * code writes hold none of the original skin's distinctive strings, while
 * the same workspaces written by this tree are full of them (the scan can
 * fail). CI's `npm run validate:skin` adds every probe bar of every task.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanForLeaks } from "../../scripts/skin/leaks.ts";
import { makeRelease, REPO_ROOT, skinOf } from "../../scripts/skin/make-release.ts";
import { vocabularyPattern } from "../../scripts/skin/rewrite.ts";
import { writeWorkspaces } from "../../scripts/skin/workspaces.ts";
import { runCli } from "./run-cli.ts";

const TASKS = ["task-0025", "task-0047", "task-0052"];
const base = mkdtempSync(join(tmpdir(), "wb-skin-"));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("a re-skinned release", () => {
  const a = makeRelease({ key: "test-key", out: join(base, "a") });

  it("is the same for the same key and differs for another", () => {
    expect(skinOf("test-key").skin).toEqual(a.skin);
    const other = skinOf("another-key").skin;
    expect(other.tag).not.toBe(a.skin.tag);
    expect(other.brands.map((b) => b.to.id)).not.toEqual(a.skin.brands.map((b) => b.to.id));
    expect(a.summary.releaseId).toBe(`r1x${a.skin.tag}`);
    expect(existsSync(join(base, "a", "declarations", "vendors", "placemint.ts"))).toBe(false);
    expect(readFileSync(join(base, "a", "declarations", "vendors", `${a.skin.brands.find((b) => b.from.id === "placemint")!.to.id}.ts`), "utf8")).toMatch(/defineVendor/);
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

describe("wirebench release", () => {
  it("refuses a missing key, a missing or non-empty folder and a map inside the release, with exit 2 and one line", () => {
    const full = join(base, "a");
    const cases: [string[], RegExp][] = [
      [["release", "--out", join(base, "x")], /--skin <key> is required/],
      [["release", "--skin", "k"], /--out <dir> is required/],
      [["release", "--skin", "k", "--out", full], /not empty/],
      [["release", "--skin", "k", "--out", join(base, "y"), "--map", join(base, "y", "map.json")], /outside the release/],
    ];
    for (const [args, message] of cases) {
      const r = runCli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(existsSync(join(base, "y"))).toBe(false);
  }, 60_000);

  it("writes the release and, on request, the map outside it", () => {
    const r = runCli(["release", "--skin", "cli-key", "--out", join(base, "cli"), "--map", join(base, "cli-map.json"), "--json"]);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed.summary.releaseId).toMatch(/^r1x[0-9a-f]{6}$/);
    expect(printed.renamed.brands).toBe(15);
    const map = JSON.parse(readFileSync(join(base, "cli-map.json"), "utf8"));
    expect(map.brands.map((b: { from: { id: string } }) => b.from.id)).toContain("placemint");
    expect(readFileSync(join(base, "cli", "declarations", "release.ts"), "utf8")).toContain(printed.summary.releaseId);
  }, 60_000);
});
