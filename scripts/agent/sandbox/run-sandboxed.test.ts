import { chmodSync, existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CellLimits } from "./cell-limits.ts";
import { handOver } from "./ownership.ts";
import { runSandboxed } from "./run-sandboxed.ts";

const MiB = 1024 ** 2;
const SMALL: CellLimits = { memoryBytes: 256 * MiB, pids: 64, tmpBytes: 16 * MiB, fileBytes: 8 * MiB };
const root = process.getuid?.() === 0;

function cell() {
  const dir = mkdtempSync(join(tmpdir(), "wb-cell-"));
  chmodSync(dir, 0o711);
  for (const d of ["workspace", "home", "bridge"]) {
    mkdirSync(join(dir, d));
    handOver(join(dir, d));
  }
  return {
    dir,
    run: (script: string, timeLimitS = 30, originMs?: number) =>
      runSandboxed(
        { workspace: join(dir, "workspace"), home: join(dir, "home"), bridgeDir: join(dir, "bridge"), mounts: [], env: {}, forward: [], reverse: [], argv: ["sh", "-c", script] },
        { timeLimitS, graceS: 1, limits: SMALL, originMs },
      ),
  };
}

const stdout = (r: Awaited<ReturnType<typeof runSandboxed>>) => r.lines.filter((l) => l.stream === "stdout").map((l) => l.text);

describe("a sandboxed command's cell", () => {
  it("caps /tmp and the size of a file", async () => {
    const { run } = cell();
    const r = await run(
      "(for i in 1 2 3; do head -c 7M /dev/zero > /tmp/f$i || exit 1; done) 2>/dev/null; echo tmp=$?; (head -c 12M /dev/zero > /workspace/big) 2>/dev/null; echo file=$?; ls -l /workspace/big | awk '{print $5}'",
    );
    // /tmp holds 16 MiB: the third 7 MiB file does not fit. A file stops at 8 MiB (SIGXFSZ: 128 + 25).
    expect(stdout(r)).toEqual(["tmp=1", "file=153", String(8 * MiB)]);
  });

  it("times lines from the origin it is given, so time spent before the start is counted", async () => {
    const { run } = cell();
    // The caller's clock started 60 s before the command: every line is at least 60 s in.
    const r = await run("echo one; echo two", 30, Date.now() - 60_000);
    expect(stdout(r)).toEqual(["one", "two"]);
    for (const l of r.lines) expect(l.t).toBeGreaterThanOrEqual(60);
    const own = await run("echo one", 30);
    expect(own.lines[0].t).toBeLessThan(60);
  });

  it("leaves nothing running after the command ends: a daemon in a session of its own is gone", async () => {
    const { dir, run } = cell();
    const r = await run("setsid sh -c 'sleep 1.5; touch /workspace/daemon-was-here' > /dev/null 2>&1 < /dev/null & echo started");
    expect(stdout(r)).toEqual(["started"]);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(existsSync(join(dir, "workspace", "daemon-was-here"))).toBe(false);
  });

  it.skipIf(!root)("kills a process that outgrows the memory limit, and refuses forks past the process limit", async () => {
    const { run } = cell();
    const memory = await run(`node -e "const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))"; echo exit=$?`);
    expect(stdout(memory)).toEqual(["exit=137"]);
    expect(memory.limits.oomKills).toBeGreaterThan(0);
    const pids = await run("for i in $(seq 1 100); do sleep 3 & done 2>/dev/null; echo forked");
    expect(pids.limits.pidsRefused).toBeGreaterThan(0);
    expect(memory.limits.enforcement).toMatch(/^cgroup-v[12]$/);
  });
});
