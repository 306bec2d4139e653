import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASKS } from "../../declarations/tasks/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { answerKeys } from "../../scripts/fixtures/answer-keys.ts";
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
  it("match what the live simulator serves (regenerate with npm run fixtures)", async () => {
    const dir = join(taskDir(id), "fixtures");
    const committed = existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort()
      : [];
    const fresh = await answerKeys({ url: farm.url, adminToken: farm.adminToken, close: async () => {} }, entry.task);
    expect(committed, "fixture files").toEqual(Object.keys(fresh).sort());
    for (const file of committed) expect(JSON.parse(readFileSync(join(dir, file), "utf8")), file).toEqual(fresh[file]);
  });
});
