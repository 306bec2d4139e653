import type { Env as FarmEnv } from "../../workers/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends FarmEnv {
      TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    }
  }
}
