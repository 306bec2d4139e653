import type { Env as FarmEnv } from "../../workers/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends FarmEnv {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
      /** The grader's D1, bound to the tests to apply migrations. */
      TEST_DB: D1Database;
    }
  }
}
