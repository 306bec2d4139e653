/**
 * `npm run deploy:check`: proves the production deploy without deploying.
 * Checks both configs' production bindings, then bundles each with
 * `wrangler deploy --dry-run --env production`. Exit 1 on any problem.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "../farm/paths.ts";
import { CONFIGS, productionProblems, readProductionConfig } from "./production-config.ts";

const root = projectRoot();
const problems = productionProblems(readProductionConfig(join(root, CONFIGS.farm)), readProductionConfig(join(root, CONFIGS.grader)));
for (const p of problems) console.error(`deploy check: ${p}`);
if (problems.length) process.exit(1);

for (const [name, config] of Object.entries(CONFIGS)) {
  const out = join(root, ".wirebench", "deploy-check", name);
  try {
    const printed = execFileSync(process.execPath, [join(root, "node_modules", "wrangler", "bin", "wrangler.js"), "deploy", "--dry-run", "--env", "production", "-c", config, "--outdir", out], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    });
    console.log(`${name}: production bundle built`);
    console.log(printed.slice(printed.indexOf("Your Worker has access")).split("\n--dry-run")[0].trim());
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
