import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASKS } from "../../declarations/tasks/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { ANSWER_KEYS_FILE, answerKeys } from "../../scripts/fixtures/answer-keys.ts";
import { taskDir } from "../../scripts/harness/workspace.ts";
import { startFarm } from "./farm.ts";

let farm: LocalFarm;
beforeAll(async () => {
  farm = await startFarm();
});
afterAll(async () => {
  await farm?.stop();
});

describe.each(
  Object.values(TASKS)
    .filter((e) => e.gold)
    .map((e) => [e.task.id, e] as const),
)("answer keys of %s", (id, entry) => {
  it("match the digests of what the live simulator serves at every checkpoint (regenerate with npm run fixtures)", async () => {
    const dir = join(taskDir(id), "fixtures");
    const files = existsSync(dir) ? readdirSync(dir).sort() : [];
    expect(files, "fixture files").toEqual([ANSWER_KEYS_FILE]);
    const committed = JSON.parse(readFileSync(join(dir, ANSWER_KEYS_FILE), "utf8"));
    const fresh = await answerKeys({ url: farm.url, adminToken: farm.adminToken, close: async () => {} }, entry.task);
    expect(Object.keys(fresh.keys).length, "one key per (role, checkpoint)").toBeGreaterThan(1);
    // Key by key, so a drift names the role, checkpoint and entity.
    expect(Object.keys(committed.keys).sort(), "checkpoints").toEqual(Object.keys(fresh.keys).sort());
    for (const [name, key] of Object.entries(fresh.keys)) expect(committed.keys[name], name).toEqual(key);
    expect(committed).toEqual(fresh);
  });
});
