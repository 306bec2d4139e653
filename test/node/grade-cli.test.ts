import { cpSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { taskDir } from "../../scripts/harness/workspace.ts";
import { runCli, startServe } from "./run-cli.ts";

const ENV = { WIREBENCH_ADMIN_TOKEN: "grade-cli-test" };
let farm: Awaited<ReturnType<typeof startServe>>;

beforeAll(async () => {
  farm = await startServe([], ENV);
});
afterAll(() => {
  farm?.proc.kill("SIGTERM");
});

/** A copy of task-0001's starter with its entry replaced. */
function connector(main: string): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-grade-"));
  cpSync(join(taskDir("task-0001"), "repo"), dir, { recursive: true });
  writeFileSync(join(dir, "src", "main.ts"), main);
  return dir;
}

function grade(repo: string, extra: string[] = []) {
  return runCli(["grade", "--task", "task-0001", "--repo", repo, "--json", "--farm", farm.url, ...extra], ENV);
}

describe("wirebench grade", () => {
  it("grades the starter at 0, and re-grading the archived run gives the same verdict", async () => {
    const r = grade(join(taskDir("task-0001"), "repo"));
    expect(r.code, r.stderr).toBe(0);
    const starter = JSON.parse(r.stdout);
    expect(starter.score).toBe(0);
    const again = await fetch(`${farm.url}/v1/runs/${starter.runId}/grade`, { method: "POST", headers: { authorization: `Bearer ${ENV.WIREBENCH_ADMIN_TOKEN}` } });
    expect(await again.json()).toEqual(starter);
  });

  it("scores a crashing connector 0 with the crash in the check detail", () => {
    const r = grade(connector('throw new Error("boom");\n'));
    expect(r.code, r.stderr).toBe(0);
    const v = JSON.parse(r.stdout);
    expect(v).toMatchObject({ score: 0, solved: false, error: null });
    expect(v.checks.l1.find((c: any) => c.name === "backfill_exit_ok").detail).toMatch(/exit code 1.*boom/s);
  });

  it("stops a connector that hangs at the time limit", () => {
    const started = Date.now();
    const r = grade(connector("setInterval(() => {}, 1000);\n"), ["--time-limit", "2"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).checks.l1.find((c: any) => c.name === "backfill_exit_ok").detail).toMatch(/timed out/);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it("fails plumbing when an output is not JSON", () => {
    const r = grade(
      connector(
        'import { writeFileSync, mkdirSync } from "node:fs";\nmkdirSync(process.env.OUTPUT_DIR!, { recursive: true });\nfor (const f of ["candidates.json", "jobs.json", "applications.json"]) writeFileSync(`${process.env.OUTPUT_DIR}/${f}`, "not json");\n',
      ),
    );
    const v = JSON.parse(r.stdout);
    expect(v.checks.l1.find((c: any) => c.name === "backfill_exit_ok")).toMatchObject({
      ok: false,
      value: -1,
      detail: expect.stringMatching(/^candidates\.json is not JSON \(one array of rows\): Unexpected token/),
    });
  });

  it("runs the connector in the sandbox: it finds neither the checkout, nor the answer key, nor the farm's token", () => {
    const gold = join(taskDir("task-0001"), "gold-manifest.json");
    const r = grade(
      connector(`import { readFileSync, readdirSync, readlinkSync } from "node:fs";
const found = [];
try { readFileSync(${JSON.stringify(gold)}); found.push("gold"); } catch {}
for (const p of [process.ppid, 1]) { try { if (readlinkSync("/proc/" + p + "/cwd").includes(${JSON.stringify(projectRoot())})) found.push("checkout"); } catch {} }
for (const pid of readdirSync("/proc").filter((p) => /^\\d+$/.test(p))) {
  try { const text = readFileSync("/proc/" + pid + "/environ", "utf8") + readFileSync("/proc/" + pid + "/cmdline", "utf8"); if (text.includes(${JSON.stringify(ENV.WIREBENCH_ADMIN_TOKEN)})) found.push("token"); } catch {}
}
throw new Error("found=" + JSON.stringify(found));
`),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).checks.l1.find((c: any) => c.name === "backfill_exit_ok").detail).toContain("found=[]");
  });

  it("never reads or clears a host folder the connector links its output folder to", async () => {
    const victim = mkdtempSync(join(tmpdir(), "wb-victim-"));
    for (const f of ["candidates.json", "jobs.json", "applications.json"]) writeFileSync(join(victim, f), JSON.stringify([{ canary: "victim-canary" }]));
    const r = grade(
      connector(`import { rmSync, symlinkSync } from "node:fs";
rmSync(process.env.OUTPUT_DIR, { recursive: true, force: true });
symlinkSync(${JSON.stringify(victim)}, process.env.OUTPUT_DIR);
`),
    );
    expect(r.code, r.stderr).toBe(0);
    const evidence = await fetch(`${farm.url}/v1/runs/${JSON.parse(r.stdout).runId}/evidence`, { headers: { authorization: `Bearer ${ENV.WIREBENCH_ADMIN_TOKEN}` } }).then((res) => res.text());
    expect(evidence).toContain('"outputs"');
    expect(evidence).not.toContain("victim-canary");
    expect(readdirSync(victim).sort()).toEqual(["applications.json", "candidates.json", "jobs.json"]);
  });

  it("gives a candidate_setup_failure verdict when the entry script is missing", () => {
    const dir = mkdtempSync(join(tmpdir(), "wb-empty-"));
    const v = JSON.parse(grade(dir).stdout);
    expect(v.error).toMatchObject({ class: "candidate_setup_failure" });
    expect(v.score).toBe(0);
  });

  it.each([
    [["grade", "--task", "task-9999", "--repo", "."], /unknown task "task-9999"/],
    [["grade", "--task", "task-0001", "--repo", "/nonexistent/dir"], /is not a folder/],
    [["grade", "--task", "task-0001", "--repo", ".", "--seed", "-3"], /--seed must be/],
  ])("exits 2 with one line for %j", (args, message) => {
    const r = runCli([...args, "--farm", farm.url], ENV);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });
});
