import { chownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTask } from "../../../declarations/tasks/index.ts";
import { taskScript } from "../../../scripts/agent/task-scripts.ts";
import { projectRoot } from "../../../scripts/farm/paths.ts";
import { taskDir } from "../../../scripts/harness/workspace.ts";
import type { LocalFarm } from "../../../scripts/farm/local-farm.ts";
import { startFarm, TEST_ADMIN } from "../farm.ts";
import { runCli } from "../run-cli.ts";

/**
 * An agent that attacks the host side of its cell: git configuration and
 * attributes that run commands, links from the workspace, the repository and
 * the output folder to a folder it does not own, and a connector whose
 * outputs are links to host files. None of it may reach the host.
 */
const root = process.getuid?.() === 0;
const scratch = mkdtempSync(join(tmpdir(), "wb-hostile-attempt-"));
const markers = join(scratch, "markers");
const victim = join(scratch, "victim");
const canary = "wirebench-canary-7c1f0b";
const secretFile = join(scratch, "secret.json");
const goldManifest = join(taskDir("task-0001"), "gold-manifest.json");
const out = join(scratch, "runs");
let farm: LocalFarm;
let summary: any;

function hostileScript(): string {
  const task = findTask("task-0001")!.task;
  const gold = taskScript(task, "gold", "OPENAI_API_KEY")!;
  const writes = gold.steps.filter((s) => s.kind === "write");
  const gitconfig = [
    "[core]",
    `\tfsmonitor = touch ${markers}/fsmonitor`,
    `\tpager = touch ${markers}/pager`,
    "[diff]",
    `\texternal = ${markers}/external.sh`,
    '[diff "evil"]',
    `\ttextconv = touch ${markers}/textconv`,
    '[filter "evil"]',
    `\tclean = sh -c 'touch ${markers}/clean; cat'`,
    `\tsmudge = sh -c 'touch ${markers}/smudge; cat'`,
    "[include]",
    "\tpath = /workspace/evil.gitconfig",
  ].join("\n");
  // The graded connector: gold, then its outputs swapped for links to host files.
  const main = `import { rmSync, symlinkSync } from "node:fs";
await import("./gold-main.ts");
const out = process.env.OUTPUT_DIR;
rmSync(out + "/jobs.json", { force: true });
symlinkSync(${JSON.stringify(secretFile)}, out + "/jobs.json");
rmSync(out + "/applications.json", { force: true });
symlinkSync(${JSON.stringify(goldManifest)}, out + "/applications.json");
`;
  const goldMain = writes.find((w) => w.path.endsWith("/src/main.ts"))!;
  const steps = [
    ...writes.filter((w) => w !== goldMain),
    { kind: "write", path: "/workspace/repo/src/gold-main.ts", content: goldMain.content },
    { kind: "write", path: "/workspace/repo/src/main.ts", content: main },
    { kind: "write", path: "/workspace/evil.gitconfig", content: `[core]\n\tfsmonitor = touch ${markers}/included\n` },
    { kind: "write", path: "/workspace/repo/.gitattributes", content: "* filter=evil diff=evil\n" },
    { kind: "bash", command: `cat >> /workspace/repo/.git/config <<'EOF'\n${gitconfig}\nEOF` },
    {
      kind: "bash",
      command: [
        `ln -s ${victim} /workspace/victim-link`,
        `ln -s ${victim} /workspace/repo/victim-link`,
        `ln -s ${victim} /workspace/output/victim-link`,
        "ln -s . /workspace/repo/loop-a",
        "ln -s . /workspace/repo/loop-b",
        "ln -s . /workspace/loop-a",
        "ln -s . /workspace/loop-b",
        "tr '\\0' ' ' < /proc/1/cmdline > /workspace/repo/seen-cmdline.txt",
        "cat /proc/self/mountinfo > /workspace/repo/seen-mountinfo.txt",
        "tr '\\0' '\\n' < /proc/1/environ > /workspace/repo/seen-environ.txt",
      ].join(" && "),
    },
    { kind: "done", text: "done" },
  ];
  const file = join(scratch, "hostile.json");
  writeFileSync(file, JSON.stringify({ name: "hostile", steps }));
  return file;
}

beforeAll(async () => {
  mkdirSync(markers);
  mkdirSync(victim);
  writeFileSync(join(victim, "keep.txt"), "mine");
  writeFileSync(secretFile, JSON.stringify({ canary }), { mode: 0o600 });
  if (root) {
    chownSync(victim, 4242, 4242);
    chownSync(join(victim, "keep.txt"), 4242, 4242);
  }
  farm = await startFarm();
  const r = runCli(
    ["run", "--task", "task-0001", "--agent", "direct", "--model", `scripted:${hostileScript()}`, "--json", "--farm", farm.url, "--out", out],
    { WIREBENCH_ADMIN_TOKEN: TEST_ADMIN },
    300_000,
  );
  expect(r.code, r.stderr).toBe(0);
  summary = JSON.parse(r.stdout);
}, 320_000);
afterAll(async () => {
  await farm?.stop();
});

const bundle = (file: string) => readFileSync(join(out, summary.attempt, file), "utf8");

describe("a hostile agent's attempt", () => {
  it("runs none of the git configuration or attributes it planted on the host", () => {
    expect(readdirSync(markers)).toEqual([]);
    const patch = bundle("patch.diff");
    expect(patch).toContain("diff --git a/src/gold-main.ts");
    expect(patch).toContain("diff --git a/.gitattributes");
    expect(patch).not.toContain(".git/config");
  });

  it.skipIf(!root)("changes the owner of nothing its links point at", () => {
    expect(statSync(victim).uid).toBe(4242);
    expect(statSync(join(victim, "keep.txt")).uid).toBe(4242);
  });

  it("records links as links in the patch, never their targets' contents", () => {
    const patch = bundle("patch.diff");
    expect(patch).toMatch(/new file mode 120000\nindex [0-9a-f]+\.\.[0-9a-f]+\n--- \/dev\/null\n\+\+\+ b\/victim-link/);
    expect(patch).not.toContain("mine");
  });

  it("reads no output through a link: host files stay out of the verdict and the sealed evidence", () => {
    const evidence = bundle("evidence.json");
    const verdict = bundle("verdict.json");
    for (const text of [evidence, verdict]) expect(text).not.toContain(canary);
    const backfill = JSON.parse(evidence).scenarios[0].runs[0];
    const refused = { present: true, parsed: false, error: "the output is a symbolic link, not a regular file" };
    expect(backfill.outputs["jobs.json"]).toEqual(refused);
    expect(backfill.outputs["applications.json"]).toEqual(refused);
    expect(backfill.outputs["candidates.json"]).toMatchObject({ present: true, parsed: true });
  });

  it("shows the sandbox no host path of the checkout and no secret in its process table or mounts", () => {
    const patch = bundle("patch.diff");
    const seen = (name: string) => patch.split(`+++ b/${name}\n`)[1]?.split("diff --git")[0] ?? "";
    const cmdline = seen("seen-cmdline.txt");
    expect(cmdline).toMatch(/bwrap --args \d+ -- \/opt\/wirebench\/node\/bin\/node/);
    expect(cmdline).not.toMatch(/setenv|STAFFLINE/);
    expect(seen("seen-mountinfo.txt")).toMatch(/\/opt\/wirebench\/netbridge\.ts/);
    for (const name of ["seen-cmdline.txt", "seen-mountinfo.txt", "seen-environ.txt"]) expect(seen(name)).not.toContain(projectRoot());
    expect(seen("seen-environ.txt").replace(/^\+/gm, "").trim()).toBe("");
  });

  it("runs under limits, and says which", () => {
    expect(summary.limits).toMatchObject({ enforcement: root ? expect.stringMatching(/^cgroup-v[12]$/) : "rlimits", oom_kills: 0, pids_refused: 0 });
    expect(summary.limits.workspace_bytes).toBe(root ? 4 * 1024 ** 3 : null);
  });
});
