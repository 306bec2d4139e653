import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const migrations = await readD1Migrations("./migrations");

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
            miniflare: { bindings: { TEST_MIGRATIONS: migrations, WIREBENCH_ADMIN_TOKEN: "test-admin-token" } },
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
