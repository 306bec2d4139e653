import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm, TEST_ADMIN } from "./farm.ts";
import { runCli } from "./run-cli.ts";

/** `wirebench workspace`: what it writes, and what it refuses (what run gives the agent is compared in agent/exec-lane.test.ts). */
const scratch = mkdtempSync(join(tmpdir(), "wb-workspace-cli-"));
const ADMIN = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, WIREBENCH_KEY: "" };
let farm: LocalFarm;

beforeAll(async () => {
  farm = await startFarm();
});
afterAll(async () => {
  await farm?.stop();
});

function workspace(out: string, extra: string[] = [], env: Record<string, string> = ADMIN) {
  return runCli(["workspace", "--task", "task-0001", "--out", out, "--json", "--farm", farm.url, ...extra], env, 60_000);
}

const git = (dir: string, ...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();

describe("wirebench workspace", () => {
  it("writes the agent's folder, an environment a shell can source, the prompt and a description naming the world", async () => {
    const out = join(scratch, "one");
    const r = workspace(out, ["--seed", "9", "--serve-port", "4555"]);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d).toMatchObject({ task: "task-0001", seed: 9, farm: farm.url, workspace: join(out, "workspace"), workspace_path: join(out, "workspace"), serve_port: 4555, webhooks_relayed: false });
    expect(JSON.parse(readFileSync(join(out, "workspace.json"), "utf8"))).toEqual(d);
    expect(readdirSync(out).sort()).toEqual(["environment.env", "prompt.md", "workspace", "workspace.json"]);
    expect(readdirSync(join(out, "workspace")).sort()).toEqual(["PROBLEM.md", "docs", "output", "repo"]);
    // The starter at its baseline tag, nothing changed yet.
    expect(git(join(out, "workspace", "repo"), "rev-parse", "HEAD")).toBe(git(join(out, "workspace", "repo"), "rev-parse", "wirebench-baseline^{commit}"));
    expect(git(join(out, "workspace", "repo"), "status", "--porcelain")).toBe("");
    // The environment: the world's URLs and credentials, OUTPUT_DIR, SERVE_PORT, the webhook target; this account's only.
    expect(statSync(join(out, "environment.env")).mode & 0o777).toBe(0o600);
    const sourced = spawnSync("sh", ["-c", `set -a; . "${join(out, "environment.env")}"; env`], { encoding: "utf8", env: { PATH: process.env.PATH } }).stdout;
    const env = Object.fromEntries(sourced.split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    expect(env).toMatchObject({
      VENDOR_BASE_URL: d.vendors.ats.base_url,
      ATS_DOCS_URL: d.vendors.ats.docs_url,
      OUTPUT_DIR: join(out, "workspace", "output"),
      SERVE_PORT: "4555",
      ATS_WEBHOOK_TARGET: "http://127.0.0.1:4555/webhooks/staffline",
      STAFFLINE_APP_TOKEN: expect.stringMatching(/.+/),
    });
    expect(d.webhook_targets).toEqual({ ats: env.ATS_WEBHOOK_TARGET });
    // The credentials work against the world the description names.
    const res = await fetch(`${env.VENDOR_BASE_URL}/_docs/`);
    expect(res.status).toBe(200);
    expect(readFileSync(join(out, "prompt.md"), "utf8")).toMatch(new RegExp(`^You are working on ticket task-0001 in ${join(out, "workspace")}\\.\\n`));
    // The world id reproduces the starting state.
    const again = await control(farm, "POST", "/v1/worlds", d.reproduce.body);
    const fresh = await control(farm, "POST", "/v1/worlds", { task: "task-0001", seed: 9 });
    expect(again.vendors.ats.stateHash).toBe(fresh.vendors.ats.stateHash);
    expect(d.world).toMatch(/^r1-t0001-s9-[0-9a-f]{16}$/);
  });

  it("fills an empty folder; with a participant key webhooks wait for a relay, and a refused world leaves nothing behind", async () => {
    const { key } = await control(farm, "POST", "/v1/participants", { name: "workspace-lab", quota: { liveWorlds: 1 } });
    const env = { WIREBENCH_KEY: key, WIREBENCH_ADMIN_TOKEN: "" };
    const out = join(scratch, "empty");
    mkdirSync(out);
    const r = workspace(out, [], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ task: "task-0001", webhooks_relayed: true });
    const second = join(scratch, "over-quota");
    const refused = workspace(second, [], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^wirebench: farm refused POST \/v1\/worlds/);
    expect(existsSync(second)).toBe(false);
    expect(readdirSync(scratch).filter((n) => n.includes("partial"))).toEqual([]);
  });

  const nonEmpty = join(scratch, "taken");
  const aFile = join(scratch, "a-file");
  it.each([
    [["--task", "task-9999", "--out", join(scratch, "x1")], /unknown task "task-9999"/],
    [["--task", "task-0001", "--out", nonEmpty], /exists and is not empty/],
    [["--task", "task-0001", "--out", aFile], /exists and is not a folder/],
    [["--task", "task-0001", "--out", join(scratch, "no-such", "ws")], /does not exist/],
    [["--task", "task-0001", "--seed", "-3", "--out", join(scratch, "x2")], /--seed must be a non-negative integer/],
    [["--task", "task-0001", "--serve-port", "70000", "--out", join(scratch, "x3")], /--serve-port must be a TCP port/],
    [["--task", "task-0001", "--workspace-path", "relative/ws", "--out", join(scratch, "x4")], /--workspace-path must be an absolute path/],
    [["--task", "task-0001", "--farm", "http://127.0.0.1:9", "--out", join(scratch, "x5")], /cannot reach the farm/],
  ])("bad input %j prints one line and exits 2, writing nothing", (args, message) => {
    mkdirSync(nonEmpty, { recursive: true });
    writeFileSync(join(nonEmpty, "keep.txt"), "mine\n");
    writeFileSync(aFile, "mine\n");
    const before = readdirSync(scratch).sort();
    const r = runCli(["workspace", ...args, ...(args.includes("--farm") ? [] : ["--farm", farm.url])], ADMIN, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(readdirSync(scratch).sort()).toEqual(before);
    expect(readdirSync(nonEmpty)).toEqual(["keep.txt"]);
    expect(readFileSync(aFile, "utf8")).toBe("mine\n");
  });
});
