import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalFarm, type LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { control, TEST_ADMIN } from "../farm.ts";
import { runCliAsync } from "../run-cli.ts";

/**
 * A hosted farm rehearsed on one machine: the farm on a second loopback address
 * (Linux routes all of 127.0.0.0/8 to loopback), the harness told to treat it as
 * remote (WIREBENCH_REMOTE=1: every webhook goes through the relay outbox, and the
 * sandbox sees the farm only at a local origin of its own, 127.0.0.1:8790, which
 * the harness's proxy forwards, rewriting the farm's origin in its answers), and
 * a real `wirebench run` child process putting the sandboxed direct lane through
 * the webhook task. Inside the sandbox nothing listens on 127.0.0.2: a connector
 * or agent given the farm's own URL could not reach it at all.
 */
let farm: LocalFarm;
const out = mkdtempSync(join(tmpdir(), "wb-relay-runs-"));

beforeAll(async () => {
  farm = await startLocalFarm({ port: 0, host: "127.0.0.2", adminToken: TEST_ADMIN });
});
afterAll(async () => {
  await farm?.stop();
});

describe("wirebench run --farm <remote> through the relay", () => {
  it("the local farm on 127.0.0.2 is served there (not at Miniflare's extra 127.0.0.1 socket)", async () => {
    expect(new URL(farm.url).hostname).toBe("127.0.0.2");
    const res = await fetch(`${farm.url}/`);
    expect(((await res.json()) as { service: string }).service).toBe("wirebench farm");
  });

  it("task-0007 gold scores 100 with the sandboxed agent and connector seeing the farm at a local origin, every webhook relayed", async () => {
    const r = await runCliAsync(
      ["run", "--task", "task-0007", "--agent", "direct", "--model", "scripted:gold", "--json", "--farm", farm.url, "--out", out],
      { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, WIREBENCH_REMOTE: "1", OPENAI_API_KEY: "" },
      240_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary, JSON.stringify(summary.checks.filter((c: { ok: boolean }) => !c.ok))).toMatchObject({
      task: "task-0007",
      score: 100,
      solved: true,
      failure_class: "candidate_result",
      stop_reason: "done",
    });
    // The sandbox saw the farm only at its own local origin (the bridge listened there and nowhere else).
    expect(summary.proxy.farm_origin).toBe("http://127.0.0.1:8790");
    const bundle = (file: string) => JSON.parse(readFileSync(join(out, summary.attempt, file), "utf8"));

    // The agent reached the development world's vendor surface through the proxy, nothing was refused.
    const proxy = bundle("proxy-log.json") as { via: string; refused: boolean; target: string }[];
    expect(proxy.filter((p) => p.via === "farm" && !p.refused).length).toBeGreaterThan(0);
    expect(proxy.filter((p) => p.refused)).toEqual([]);
    const requests = bundle("vendor-requests.json");
    expect(requests.development.roles.ats.length).toBeGreaterThan(0);
    expect(requests.development.roles.ats.every((row: { headers: Record<string, string> }) => row.headers.host === new URL(farm.url).host)).toBe(true);

    // Every delivery the grader read was relayed, in the sealed evidence and in the farm's own log.
    const evidence = bundle("evidence.json");
    const sealed = evidence.scenarios.flatMap((s: { webhooks: { ats?: { via: string }[] } }) => s.webhooks.ats ?? []);
    expect(sealed.length).toBeGreaterThan(10);
    expect(sealed.every((d: { via: string }) => d.via === "relay")).toBe(true);
    const log = await control(farm, "GET", `/v1/worlds/${requests.grading.world}/roles/ats/webhooks`);
    expect(log.records.length).toBe(sealed.length);
    expect(log.records.every((d: { via: string; target: string }) => d.via === "relay" && d.target.startsWith("http://127.0.0.1:"))).toBe(true);
    // The relay reported real answers from the sandboxed listener (2xx for genuine events, refusals for the forged ones).
    expect(log.records.some((d: { responseCode: number | null }) => d.responseCode !== null && d.responseCode >= 200 && d.responseCode < 300)).toBe(true);
  });
});
