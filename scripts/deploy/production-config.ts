/**
 * @module production-config
 * What a production deploy must look like, read from the two Wrangler
 * configs as Wrangler itself resolves them for `--env production`: the farm
 * holds the world Durable Objects and the grader binding and no D1 and no
 * admin token in plain vars; the grader holds D1 and reaches the farm's
 * objects by script name.
 */
import { join } from "node:path";
import { unstable_readConfig } from "wrangler";

/** The two configs, relative to the project root. */
export const CONFIGS = { farm: "wrangler.toml", grader: join("workers", "grader", "wrangler.toml") } as const;

/** The fields of a resolved Wrangler config these checks read. */
export interface Config {
  name?: string;
  vars: Record<string, unknown>;
  workers_dev?: boolean;
  routes?: unknown[];
  d1_databases: { binding: string }[];
  durable_objects: { bindings: { name: string; class_name: string; script_name?: string }[] };
  migrations: { new_sqlite_classes?: string[] }[];
  services?: { binding: string; service: string }[];
}

/** Reads a config as Wrangler resolves it for an environment. */
export function readProductionConfig(path: string, env = "production"): Config {
  return unstable_readConfig({ config: path, env }, { hideWarnings: true }) as Config;
}

/** Every way the pair falls short of a safe production deploy (empty when none). */
export function productionProblems(farm: Config, grader: Config): string[] {
  const problems: string[] = [];
  const vars = farm.vars as Record<string, unknown>;
  if ("WIREBENCH_ADMIN_TOKEN" in vars) problems.push("farm: WIREBENCH_ADMIN_TOKEN is a plain var; it must be a secret (wrangler secret put)");
  if ("WIREBENCH_TEST_CLOCK" in vars) problems.push("farm: WIREBENCH_TEST_CLOCK is the tests' clock; production runs on the host's");
  if (vars.WIREBENCH_EXPOSURE !== "public") problems.push('farm: WIREBENCH_EXPOSURE must be "public" in production vars, so the control plane never opens on a forged Host: 127.0.0.1');
  if (farm.d1_databases.length) problems.push("farm: binds D1; only the grader may");
  const world = farm.durable_objects.bindings.find((b) => b.name === "WORLD");
  if (world?.class_name !== "WorldObject" || world.script_name) problems.push("farm: WORLD must bind its own WorldObject class");
  if (!farm.migrations.some((m) => m.new_sqlite_classes?.includes("WorldObject"))) problems.push("farm: no migration creates WorldObject as a SQLite class");
  const service = farm.services?.find((s) => s.binding === "GRADER");
  if (!service) problems.push("farm: no GRADER service binding");
  else if (service.service !== grader.name) problems.push(`farm: GRADER points at "${service.service}", the grader deploys as "${grader.name}"`);
  if (!grader.d1_databases.some((d) => d.binding === "DB")) problems.push("grader: no DB (D1) binding");
  const read = grader.durable_objects.bindings.find((b) => b.name === "WORLD");
  if (!read || read.script_name !== farm.name) problems.push(`grader: WORLD must bind WorldObject with script_name "${farm.name}"`);
  if (grader.workers_dev || grader.routes?.length) problems.push("grader: must have no public route (workers_dev off, no routes)");
  return problems;
}
