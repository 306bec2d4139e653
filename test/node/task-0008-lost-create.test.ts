import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskDir } from "../../scripts/harness/workspace.ts";
import { runCliAsync, startServe } from "./run-cli.ts";

// task-0008's ticket wants every hire "exactly once" and says "retries are fine". In the
// retry_storm scenario TalentForge commits a create and answers 500. A connector may settle that
// by sending it again with the key it first carried (gold), or by reading back whether it landed
// and not sending it again (solutions/alt); with no later create, the key the lost create carried
// (or that it carried none) decides nothing. Sending it again under another key, or none, is the
// mistake storm_lost_create_retried_with_first_key is named after.
const TASK = "task-0008";
const CHECK = "storm_lost_create_retried_with_first_key";
const ENV = { WIREBENCH_ADMIN_TOKEN: "task-0008-lost-create-test" };
let farm: Awaited<ReturnType<typeof startServe>>;
const dirs: string[] = [];

beforeAll(async () => {
  farm = await startServe([], ENV);
});
afterAll(() => {
  farm?.proc.kill("SIGTERM");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** The starter with a solution overlaid, its TalentForge client optionally rewritten. */
function connector(solution: "gold" | "alt", rewrite?: (client: string) => string): string {
  const dir = mkdtempSync(join(tmpdir(), "wb-t08-"));
  dirs.push(dir);
  cpSync(join(taskDir(TASK), "repo"), dir, { recursive: true });
  cpSync(join(taskDir(TASK), "solutions", solution), dir, { recursive: true });
  if (rewrite) {
    const file = join(dir, "src", "talentforge.ts");
    const before = readFileSync(file, "utf8");
    const after = rewrite(before);
    if (after === before) throw new Error("the rewrite changed nothing");
    writeFileSync(file, after);
  }
  return dir;
}

async function grade(repo: string) {
  const r = await runCliAsync(["grade", "--task", TASK, "--repo", repo, "--trusted", "--json", "--farm", farm.url], ENV, 240_000);
  expect(r.code, r.stderr).toBe(0);
  const v = JSON.parse(r.stdout);
  const checks = [...v.checks.l1, ...v.checks.l2, ...v.checks.l3] as { name: string; ok: boolean; mandatory: boolean; detail: string }[];
  return { v, check: (name: string) => checks.find((c) => c.name === name) };
}

/** Gold's client, changing the Idempotency-Key of a write it sends again after a 5xx. */
const GOLD_RETRY = "; retrying with the same request`);";
const freshKeyOnRetry = (client: string) => client.replace(GOLD_RETRY, `${GOLD_RETRY}\n        if (init.headers["Idempotency-Key"]) init.headers["Idempotency-Key"] += \`:retry-\${attempt}\`;`);
const noKeyOnRetry = (client: string) => client.replace(GOLD_RETRY, `${GOLD_RETRY}\n        delete init.headers["Idempotency-Key"];`);
/** The alt's client, sending no Idempotency-Key at all. */
const keyless = (client: string) => client.replace('if (opts.idempotencyKey) headers["Idempotency-Key"] = opts.idempotencyKey;', "");

describe("task-0008: the create whose answer was lost", () => {
  it("solves the task reading back the lost create instead of sending it again, with or without a key on it", async () => {
    const { v, check } = await grade(connector("alt", keyless));
    expect(v.solved).toBe(true);
    expect(check(CHECK)).toMatchObject({ ok: true, mandatory: true, detail: expect.stringContaining("no later create of WD-24-0102") });
    expect(check("storm_each_hire_created_once")).toMatchObject({ ok: true });
    expect(check("clean_writes_carry_idempotency_key")).toMatchObject({ ok: false, mandatory: false });
  }, 300_000);

  it("leaves a connector that sends the lost create again under a fresh key unsolved", async () => {
    const { v, check } = await grade(connector("gold", freshKeyOnRetry));
    expect(v.solved).toBe(false);
    expect(check(CHECK)).toMatchObject({ ok: false, mandatory: true, detail: expect.stringMatching(/later creates of WD-24-0102 carry another key/) });
  }, 300_000);

  it("leaves a connector that sends the lost create again with no key unsolved", async () => {
    const { v, check } = await grade(connector("gold", noKeyOnRetry));
    expect(v.solved).toBe(false);
    expect(check(CHECK)).toMatchObject({ ok: false, mandatory: true, detail: expect.stringMatching(/later creates of WD-24-0102 carry no key/) });
  }, 300_000);
});
