import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ramStorage } from "./scratch-storage.ts";

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.exit(0)"]);
  return child.pid!;
}

describe("scratch storage of a farm without a state folder", () => {
  it("makes a folder named for this process, and removes it", () => {
    base = mkdtempSync(join(tmpdir(), "wb-scratch-"));
    const s = ramStorage(base, 0)!;
    expect(s.dir.startsWith(join(base, `wirebench-farm-${process.pid}-`))).toBe(true);
    expect(existsSync(s.dir)).toBe(true);
    s.remove();
    expect(existsSync(s.dir)).toBe(false);
  });

  it("removes the folders of farms whose process is gone, and keeps those of running ones", () => {
    base = mkdtempSync(join(tmpdir(), "wb-scratch-"));
    const gone = join(base, `wirebench-farm-${deadPid()}-abc`);
    const running = join(base, `wirebench-farm-${process.ppid}-def`);
    const other = join(base, "someone-else");
    for (const d of [gone, running, other]) mkdirSync(join(d, "do"), { recursive: true });
    const s = ramStorage(base, 0)!;
    expect(readdirSync(base).sort()).toEqual([running, other, s.dir].map((d) => d.slice(base.length + 1)).sort());
    s.remove();
  });

  it("is not used when the file system lacks room or does not exist", () => {
    base = mkdtempSync(join(tmpdir(), "wb-scratch-"));
    expect(ramStorage(base, Number.MAX_SAFE_INTEGER)).toBeUndefined();
    expect(ramStorage(join(base, "missing"), 0)).toBeUndefined();
    expect(readdirSync(base)).toEqual([]);
  });
});
