import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalFarm, type LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { TEST_ADMIN } from "../farm.ts";
import { runCliAsync } from "../run-cli.ts";

/**
 * A sandboxed connector whose listener keeps serving while other commands of
 * the same scenario run (task-0012's cut-over runs while events arrive): each
 * run is a cell of its own, and neither may cut the listener off, by taking
 * over its socket or by the harness reclaiming the output folder they share.
 */
let farm: LocalFarm;
const out = mkdtempSync(join(tmpdir(), "wb-listener-runs-"));

beforeAll(async () => {
  farm = await startLocalFarm({ port: 0, adminToken: TEST_ADMIN });
});
afterAll(async () => {
  await farm?.stop();
});

describe("a sandboxed listener beside other runs", () => {
  it("task-0012 gold scores 100 through the sandbox, every genuine delivery answered by the listener", async () => {
    const r = await runCliAsync(
      ["run", "--task", "task-0012", "--agent", "direct", "--model", "scripted:gold", "--json", "--farm", farm.url, "--out", out],
      { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, OPENAI_API_KEY: "" },
      240_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary, JSON.stringify(summary.checks.filter((c: { ok: boolean }) => !c.ok))).toMatchObject({ task: "task-0012", score: 100, solved: true });
    const evidence = JSON.parse(readFileSync(join(out, summary.attempt, "evidence.json"), "utf8"));
    const deliveries = evidence.scenarios.flatMap((s: { webhooks: { ats?: { responseCode: number | null; tampered: boolean }[] } }) => s.webhooks.ats ?? []);
    expect(deliveries.length).toBeGreaterThan(10);
    // A listener cut off answers nothing: every attempt would be a timeout (no response code).
    expect(deliveries.filter((d: { responseCode: number | null }) => d.responseCode === null)).toEqual([]);
  });
});
