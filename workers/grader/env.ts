import type { WorldObject } from "../world/world-object.ts";

/** Bindings of the grader Worker (see workers/grader/wrangler.toml). */
export interface GraderEnv {
  /** Archive of worlds, sealed runs, their evidence and verdicts. */
  DB: D1Database;
  /** The farm's world Durable Objects (bound with `script_name`), whose logs a seal copies. */
  WORLD: DurableObjectNamespace<WorldObject>;
}
