import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskDir } from "../../../scripts/harness/workspace.ts";
import type { LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { startFarm, TEST_ADMIN } from "../farm.ts";
import { runCli } from "../run-cli.ts";

/**
 * The exec lane with shell-script agents, in the real sandbox against a real
 * farm, and `wirebench workspace` against what such an agent sees.
 */
const scratch = mkdtempSync(join(tmpdir(), "wb-exec-lane-"));
const out = join(scratch, "runs");
const agentDir = join(scratch, "agent");
const ENV = { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN, WB_EXEC_TEST_KEY: "sk-exec-test-0123456789abcdef" };
let farm: LocalFarm;

/**
 * One line per folder and file under a workspace, a file with the sha256 of
 * its bytes (the world's id masked: two worlds differ in it and nothing else),
 * then the prompt's hash. `.git/index` is left out: it caches inode numbers and
 * times. Run inside the sandbox by the agent and on the host by the test.
 */
const MANIFEST = `#!/bin/sh
root=$1; prompt=$2
world=$(printf '%s' "$VENDOR_BASE_URL" | sed 's#.*/w/\\([^/]*\\)/.*#\\1#')
cd "$root" || exit 1
find . -mindepth 1 \\( -type d -printf 'd %p\\n' \\) -o \\( -type f ! -path ./repo/.git/index -printf 'f %p\\n' \\) | LC_ALL=C sort | while read -r kind path; do
  if [ "$kind" = f ]; then echo "f $(sed "s/$world/WORLD/g" "$path" | sha256sum | cut -c1-64) $path"; else echo "d $path"; fi
done
echo "prompt $(sha256sum < "$prompt" | cut -c1-64)"
for k in OUTPUT_DIR SERVE_PORT VENDOR_BASE_URL VENDOR_DOCS_URL ATS_BASE_URL; do eval "echo env $k=\\$$k" | sed "s/$world/WORLD/g"; done
`;

beforeAll(async () => {
  farm = await startFarm();
  mkdirSync(agentDir);
  cpSync(join(taskDir("task-0001"), "solutions", "gold"), join(agentDir, "gold"), { recursive: true });
  writeFileSync(join(agentDir, "apply-gold.sh"), '#!/bin/sh\nset -e\necho "read $(wc -c < "$2") bytes of prompt"\ncp -R "$(dirname "$0")/gold/." "$1/repo/"\necho "gold applied" >&2\n');
  writeFileSync(join(agentDir, "manifest.sh"), MANIFEST);
});
afterAll(async () => {
  await farm?.stop();
});

function run(cmd: string, extra: string[] = []) {
  const r = runCli(["run", "--task", "task-0001", "--agent", "exec", "--cmd", cmd, "--agent-dir", agentDir, "--json", "--farm", farm.url, "--out", out, ...extra], ENV, 240_000);
  if (!r.stdout.trim()) throw new Error(`no summary (exit ${r.code}): ${r.stderr}`);
  const summary = JSON.parse(r.stdout);
  const text = (file: string) => readFileSync(join(out, summary.attempt, file), "utf8");
  const transcript = text("transcript.jsonl")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const stdout = transcript.filter((l) => l.type === "output" && l.stream === "stdout").map((l) => l.text as string);
  return { code: r.code, summary, text, transcript, stdout };
}

describe("the exec lane", () => {
  it("a shell-script agent that applies gold scores 100 in the sandbox; its output is the transcript, and no trajectory is made up", () => {
    const r = run("sh {agent_dir}/apply-gold.sh {workspace} {prompt_file}", ["--model", "gold-script"]);
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ lane: "exec", model: "gold-script", score: 100, solved: true, failure_class: "candidate_result", stop_reason: "done" });
    expect(r.summary.limits.enforcement).toMatch(/^cgroup-v[12]$|^rlimits$/);
    expect(r.stdout).toEqual([expect.stringMatching(/^read [1-9]\d* bytes of prompt$/)]);
    expect(r.transcript).toContainEqual(expect.objectContaining({ type: "output", stream: "stderr", text: "gold applied" }));
    expect(JSON.parse(r.text("trajectory.json"))).toBeNull();
    expect(JSON.parse(r.text("trajectory.atif.json"))).toBeNull();
    expect(r.text("patch.diff")).toContain("diff --git a/src/main.ts");
  });

  it("an agent that does nothing scores 0", () => {
    const r = run("true", ["--model", "nothing-script"]);
    expect(r.code).toBe(0);
    expect(r.summary).toMatchObject({ lane: "exec", score: 0, solved: false, failure_class: "candidate_result" });
    expect(r.text("patch.diff")).toBe("");
  });

  it("reads output in a known event format into a trajectory", () => {
    const events = [
      { type: "system", model: "outside", tools: ["bash"] },
      { type: "user", content: "go" },
      { type: "assistant", turn: 1, content: "", tool_calls: [{ id: "c1", name: "bash", arguments: { command: "true" } }] },
      { type: "tool_result", turn: 1, id: "c1", name: "bash", ok: true, content: "", exit_code: 0 },
      { type: "assistant", turn: 2, content: "", tool_calls: [{ id: "c2", name: "done", arguments: { summary: "nothing to do" } }] },
    ];
    writeFileSync(join(agentDir, "events.jsonl"), `${events.map((e) => JSON.stringify(e)).join("\n")}\n`);
    const r = run("cat {agent_dir}/events.jsonl", ["--model", "events-script"]);
    const trajectory = JSON.parse(r.text("trajectory.json"));
    expect(trajectory).toMatchObject({ schema: "wirebench-trajectory/1", lane: "exec", model: "events-script" });
    expect(trajectory.events.map((e: { kind: string }) => e.kind)).toEqual(["system", "user", "tool_call", "message"]);
  });

  it("reaches only the hosts it declares; a passed key is kept out of the bundle", () => {
    const r = run(
      'curl -s -m 5 -o /dev/null https://api.example.com/ ; curl -s -m 5 -o /dev/null https://example.org/ ; curl -s -m 5 -o /dev/null "$(echo "$VENDOR_BASE_URL" | cut -d/ -f1-3)/v1/worlds"; echo "key $WB_EXEC_TEST_KEY" >&2',
      ["--allow-host", "api.example.com", "--pass-env", "WB_EXEC_TEST_KEY", "--model", "egress-script"],
    );
    const log = JSON.parse(r.text("proxy-log.json")) as { via: string; target: string; refused: boolean }[];
    expect(log.filter((p) => p.via === "egress").map((p) => [p.target, p.refused])).toEqual([
      ["api.example.com:443", false],
      ["example.org:443", true],
    ]);
    expect(log).toContainEqual(expect.objectContaining({ via: "farm", target: "/v1/worlds", refused: true }));
    expect(r.summary).toMatchObject({ failure_class: "secret_exfiltration", reward: null, secret_redaction: { detected: true } });
    expect(r.text("transcript.jsonl")).not.toContain(ENV.WB_EXEC_TEST_KEY);
    expect(r.text("transcript.jsonl")).toContain("[REDACTED_RUNTIME_SECRET]");
  });

  it.each([
    [["--cmd", "{prompt_file}"], /--cmd must name a command/],
    [["--cmd", "cat '{prompt_file}'"], /outside quotes/],
    [["--cmd", "true", "--allow-host", "127.0.0.1"], /--allow-host .*an address/],
    [["--cmd", "true", "--allow-host", "localhost:8787"], /--allow-host/],
    [["--cmd", "true", "--allow-host", "https://api.example.com"], /--allow-host/],
    [["--cmd", "true", "--pass-env", "WB_EXEC_UNSET_VARIABLE"], /not set here/],
    [["--cmd", "true", "--pass-env", "HTTPS_PROXY"], /sets that variable/],
    [["--cmd", "true", "--agent-dir", "/nonexistent-agent-dir"], /not a folder/],
    [[], /needs --cmd/],
  ])("bad input %j exits 2 with one line before any world or bundle exists", (args, message) => {
    const before = existsSync(out) ? readdirSync(out).length : 0;
    const r = runCli(["run", "--task", "task-0001", "--agent", "exec", ...args, "--farm", farm.url, "--out", out], ENV, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(existsSync(out) ? readdirSync(out).length : 0).toBe(before);
  });

  it("a built-in lane still needs --model", () => {
    const r = runCli(["run", "--task", "task-0001", "--agent", "direct", "--farm", farm.url, "--out", out], ENV, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--model is required/);
  });

  it("exec-lane options on another lane are refused", () => {
    const r = runCli(["run", "--task", "task-0001", "--agent", "direct", "--model", "scripted:nothing", "--cmd", "true", "--farm", farm.url, "--out", out], ENV, 60_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--cmd is an option of --agent exec/);
  });
});

describe("wirebench workspace gives what run gives the agent", () => {
  it("the same files byte for byte, the same prompt and the same environment, for the same task and seed", () => {
    const seen = run("sh {agent_dir}/manifest.sh {workspace} {prompt_file}", ["--model", "manifest-script", "--seed", "5"]).stdout;
    const dir = join(scratch, "ws");
    const w = runCli(["workspace", "--task", "task-0001", "--seed", "5", "--workspace-path", "/workspace", "--json", "--farm", farm.url, "--out", dir], ENV, 60_000);
    expect(w.code, w.stderr).toBe(0);
    const description = JSON.parse(w.stdout);
    const env = Object.fromEntries(
      readFileSync(join(dir, "environment.env"), "utf8")
        .trim()
        .split("\n")
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    const host = spawnSync("sh", [join(agentDir, "manifest.sh"), join(dir, "workspace"), join(dir, "prompt.md")], { encoding: "utf8", env: { PATH: process.env.PATH, ...env } });
    expect(host.status, host.stderr).toBe(0);
    // The host's listing names the workspace path as the agent sees it: the sandbox's, /workspace.
    const written = host.stdout.trim().split("\n");
    expect(written.filter((l) => l.startsWith("f ")).length).toBeGreaterThan(20);
    expect(written).toContain("d ./output");
    expect(written.some((l) => / \.\/repo\/\.git\/refs\/tags\/wirebench-baseline$/.test(l))).toBe(true);
    expect(seen).toEqual(written);
    expect(env.VENDOR_BASE_URL).toBe(description.vendors.ats.base_url);
    expect(env.ATS_WEBHOOK_TARGET).toBe("http://127.0.0.1:4000/webhooks/staffline");
  });
});
