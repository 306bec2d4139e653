import { defineConfig } from "vitest/config";

/** Browser tests (`npm run test:e2e`): need Debian's chromium, or CHROMIUM_PATH. Not part of `npm test`. */
export default defineConfig({
  test: {
    name: "e2e",
    environment: "node",
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["./test/node/setup/build-worker.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
