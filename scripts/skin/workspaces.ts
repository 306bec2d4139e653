/**
 * @module workspaces
 * Writes what every public task's attempt would hand its agent (the
 * workspace folder, the prompt and the environment file) without a farm:
 * the development world is named but not created, its credentials carry
 * their declared prefixes. A skin's leak scan reads these files.
 *
 * Run inside a release: `node scripts/skin/workspaces.ts OUT [task ...]`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { RELEASE_ID } from "../../declarations/release.ts";
import { TASKS } from "../../declarations/tasks/index.ts";
import { findVendor } from "../../declarations/vendors/index.ts";
import { credentialEnvNames } from "../../workers/engine/auth/credentials.ts";
import { formatWorldId } from "../../workers/world/world-id.ts";
import { prepareAgentWorkspace } from "../agent/agent-workspace.ts";
import type { DevWorld } from "../agent/workspace.ts";
import { envFile } from "../agent/env-file.ts";

const ORIGIN = "http://127.0.0.1:8787";

/** Writes one folder per public task under `out` (or per task of `only`); returns the task ids. */
export function writeWorkspaces(out: string, only?: readonly string[]): string[] {
  const ids: string[] = [];
  for (const entry of Object.values(TASKS)) {
    if (entry.heldOut || (only?.length && !only.includes(entry.task.id))) continue;
    const task = entry.task;
    const world = formatWorldId({ release: RELEASE_ID, task: task.id, seed: task.seed, random: "0".repeat(16) });
    const dev: DevWorld = { world, vendors: {} };
    for (const [role, r] of Object.entries(task.roles)) {
      const vendor = findVendor(r.vendor);
      if (!vendor) throw new Error(`${task.id}: unknown vendor ${r.vendor}`);
      const baseUrl = `${ORIGIN}/w/${world}/${role}`;
      const names = credentialEnvNames(vendor.envPrefix, vendor.auth);
      const env: Record<string, string> = { [`${vendor.envPrefix}_BASE_URL`]: baseUrl, [`${vendor.envPrefix}_DOCS_URL`]: `${baseUrl}/_docs/` };
      for (const c of vendor.auth.credentials) env[names[c.name]] = `${c.prefix}${"0".repeat(24)}`;
      dev.vendors[role] = { vendor: r.vendor, baseUrl, docsUrl: `${baseUrl}/_docs/`, env };
    }
    const dir = join(out, task.id);
    mkdirSync(join(dir, "workspace"), { recursive: true });
    const briefing = prepareAgentWorkspace({ dir: join(dir, "workspace"), task, world: dev, seed: task.seed, workspacePath: "/workspace", servePort: 8080 });
    writeFileSync(join(dir, "prompt.md"), briefing.prompt);
    writeFileSync(join(dir, "environment.env"), envFile(briefing.env));
    ids.push(task.id);
  }
  return ids;
}

if (import.meta.main) {
  const out = process.argv[2];
  if (!out) {
    console.error("usage: node scripts/skin/workspaces.ts OUT [task ...]");
    process.exit(2);
  }
  const ids = writeWorkspaces(resolve(out), process.argv.slice(3));
  console.log(`${ids.length} task workspaces written to ${resolve(out)}`);
}
