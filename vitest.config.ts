import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { buildWorker } from "./scripts/farm/build-worker.ts";

const migrations = await readD1Migrations("./migrations");
// The grader runs beside the farm as an auxiliary Worker, which the pool takes only as built JavaScript.
const bundles = buildWorker();
/**
 * The slow tier: `validate` of every task and the sweeps of real agent CLIs through their lanes.
 * `npm test` runs them; `npm run test:fast` (WIREBENCH_TESTS=fast) runs everything else.
 */
const SLOW_TESTS = [
  "test/node/validate-tasks.test.ts",
  "test/node/agent/claude-code.test.ts",
  "test/node/agent/codex.test.ts",
  "test/node/agent/opencode.test.ts",
  "test/node/agent/cli-lanes.test.ts",
];
/**
 * The longest files of the fast tier (measured on 2 cores: 45-95 s each), the workers project's
 * included. A scheduling hint only: a file missing from the list costs time, never a result.
 */
const LONG_TESTS = [
  "test/node/agent/exec-lane.test.ts",
  "test/node/fixtures-drift.test.ts",
  "test/worker/hostile-bodies.test.ts",
  "test/node/agent/run-command.test.ts",
  "test/node/publish.test.ts",
  "test/node/shard.test.ts",
  "test/node/grade-cli.test.ts",
  "test/node/task-0019-removal-sweep.test.ts",
  "test/node/grade-all.test.ts",
];
/**
 * Longest first: the slow tier (validation at the very front), then the long files, then the
 * rest. With a few files at a time, a long file started late runs alone at the end: vitest's own
 * order in a clean clone (no timings cached) runs the projects one after the other and each by
 * file size, which left the workers project's longest file, and the small validation file, last.
 */
class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = [...SLOW_TESTS, ...LONG_TESTS];
    const rank = (f: TestSpecification) => {
      const i = first.findIndex((long) => f.moduleId.endsWith(long));
      return i === -1 ? first.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
const tier = process.env.WIREBENCH_TESTS ?? "all";
if (tier !== "all" && tier !== "fast") throw new Error(`WIREBENCH_TESTS is "all" or "fast", not "${tier}"`);
/** The pool renames the Worker under test: `vitest-plugin-runner-<project>`; the grader's WORLD binding names that script. */
const FARM_UNDER_TEST = "vitest-plugin-runner-workers";

export default defineConfig({
  test: {
    // Most of the suite waits on workerd, connectors and agent CLIs rather than computing, so more
    // files than cores run at once (vitest's default is one on 2 cores). The whole suite runs two:
    // validation keeps most of both cores busy on its own. The fast tier runs three (measured on
    // 2 cores before the workers project shared its runner: 393 s against 441 s with two).
    maxWorkers: tier === "fast" ? 3 : 2,
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // WIREBENCH_TEST_CLOCK: world objects run on a clock the tests move (workers/engine/clock.ts).
              bindings: { TEST_MIGRATIONS: migrations, WIREBENCH_ADMIN_TOKEN: "test-admin-token", WIREBENCH_TEST_CLOCK: "manual" },
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
          // One runner per vitest worker for every file: without it each file loaded the farm's whole
          // module graph again (2-3 s of CPU a file, 130 s of the project's 200 s). Each test makes its
          // own worlds, and the setup's migrations, run again for each file, find them applied.
          // Measured: the project 131 s -> 42 s wall.
          isolate: false,
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
          exclude: [...configDefaults.exclude, ...(tier === "fast" ? SLOW_TESTS : [])],
          globalSetup: ["./test/node/setup/build-worker.ts", "./test/node/setup/shared-farm.ts"],
          // Files share their worker's loaded modules (the task registry, zod, the harness) instead of
          // loading them again each (no file mocks a module or keeps state across files). With the
          // CLI's farm loaded only when it starts one: the fast tier 512 s -> 400 s, CPU 840 s -> 631 s.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
