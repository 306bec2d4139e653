import type { Context } from "hono";
import type { GraderEnv } from "./env.ts";

/** A request context inside the grader. */
export type GraderContext = Context<{ Bindings: GraderEnv }>;
