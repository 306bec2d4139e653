import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildWorker } from "./scripts/farm/build-worker.ts";

const migrations = await readD1Migrations("./migrations");
// The grader runs beside the farm as an auxiliary Worker, which the pool takes only as built JavaScript.
const bundles = buildWorker();
/** The pool renames the Worker under test: `vitest-plugin-runner-<project>`; the grader's WORLD binding names that script. */
const FARM_UNDER_TEST = "vitest-plugin-runner-workers";

export default defineConfig({
  test: {
    // Two files at a time: most of the suite waits on workerd, connectors and agent CLIs rather
    // than computing, so a second file overlaps that waiting (vitest's default is one on 2 cores).
    maxWorkers: 2,
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { TEST_MIGRATIONS: migrations, WIREBENCH_ADMIN_TOKEN: "test-admin-token" },
              // The grader's archive, bound to the tests only to apply migrations (the farm itself has no D1).
              d1Databases: { TEST_DB: "wirebench-test" },
              workers: [
                {
                  name: "wirebench-grader",
                  modules: true,
                  scriptPath: bundles.grader,
                  compatibilityDate: "2026-11-01",
                  compatibilityFlags: ["nodejs_compat"],
                  d1Databases: { DB: "wirebench-test" },
                  durableObjects: { WORLD: { className: "WorldObject", scriptName: FARM_UNDER_TEST, useSQLite: true } },
                },
              ],
            },
          }),
        ],
        test: {
          name: "workers",
          include: ["test/worker/**/*.test.ts", "workers/**/*.test.ts"],
          setupFiles: ["./test/worker/setup/apply-migrations.ts"],
          // Some tests walk a quota of hundreds of requests; beside another file on 2 cores that can pass 5 s.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "node",
          environment: "node",
          include: ["test/node/**/*.test.ts", "scripts/**/*.test.ts", "declarations/**/*.test.ts", "mechanics/**/*.test.ts"],
          globalSetup: ["./test/node/setup/build-worker.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
