import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../farm/paths.ts";
import { CONFIGS, productionProblems, readProductionConfig } from "./production-config.ts";

const root = projectRoot();
const scratch = mkdtempSync(join(tmpdir(), "wb-deploy-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("production deploy config", () => {
  it("has nothing to fix as committed", () => {
    expect(productionProblems(readProductionConfig(join(root, CONFIGS.farm)), readProductionConfig(join(root, CONFIGS.grader)))).toEqual([]);
  });

  it("names a token in plain vars, the tests' clock, a D1 on the farm and a grader the farm does not point at", () => {
    const farm = readFileSync(join(root, CONFIGS.farm), "utf8")
      .replace("[env.production.vars]", '[env.production.vars]\nWIREBENCH_ADMIN_TOKEN = "oops"\nWIREBENCH_TEST_CLOCK = "manual"')
      .replace(
        'service = "wirebench-grader"\n',
        'service = "wirebench-grader"\n\n[[env.production.d1_databases]]\nbinding = "DB"\ndatabase_name = "x"\ndatabase_id = "00000000-0000-0000-0000-000000000001"\n',
      )
      .replaceAll('service = "wirebench-grader"', 'service = "someone-else"');
    const path = join(scratch, "wrangler.toml");
    writeFileSync(path, farm.replace('main = "workers/index.ts"', `main = "${join(root, "workers", "index.ts")}"`));
    const problems = productionProblems(readProductionConfig(path), readProductionConfig(join(root, CONFIGS.grader)));
    expect(problems.join("\n")).toMatch(/WIREBENCH_ADMIN_TOKEN is a plain var/);
    expect(problems.join("\n")).toMatch(/farm: binds D1/);
    expect(problems.join("\n")).toMatch(/WIREBENCH_TEST_CLOCK is the tests' clock/);
    expect(problems.join("\n")).toMatch(/GRADER points at "someone-else"/);
  });

  it("names a production farm that does not say it is public (the control plane would then trust the Host header)", () => {
    const farm = readFileSync(join(root, CONFIGS.farm), "utf8").replace(/\nWIREBENCH_EXPOSURE = "public"/, "");
    const path = join(scratch, "wrangler-exposure.toml");
    writeFileSync(path, farm.replace('main = "workers/index.ts"', `main = "${join(root, "workers", "index.ts")}"`));
    expect(productionProblems(readProductionConfig(path), readProductionConfig(join(root, CONFIGS.grader)))).toEqual([
      'farm: WIREBENCH_EXPOSURE must be "public" in production vars, so the control plane never opens on a forged Host: 127.0.0.1',
    ]);
  });
});
