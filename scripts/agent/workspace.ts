/**
 * @module workspace
 * The folder an agent works in: the ticket, the starter as a git repository
 * with a baseline commit, the task's materials, and the documentation of the
 * development world. Nothing else of the task (no declaration, solutions,
 * fixtures or gold manifest) and no path into the wirebench checkout.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Task } from "../../declarations/schema/task.ts";
import { findVendor } from "../../declarations/vendors/index.ts";
import { buildDocsSet } from "../../workers/docs/docs-set.ts";
import { buildState } from "../../workers/engine/data/generate.ts";
import { taskDir } from "../harness/workspace.ts";

/** Tag of the baseline commit the patch is taken against. */
export const BASELINE = "wirebench-baseline";

const GIT_ENV = {
  GIT_AUTHOR_NAME: "wirebench",
  GIT_AUTHOR_EMAIL: "bench@wirebench.invalid",
  GIT_COMMITTER_NAME: "wirebench",
  GIT_COMMITTER_EMAIL: "bench@wirebench.invalid",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/**
 * Runs git in a repository the harness made and owns. It reads no system or
 * global configuration and runs no hook or fsmonitor: nothing from outside
 * the harness's own files decides what git does.
 */
export function git(cwd: string, args: string[], input?: string, opts: { quiet?: boolean } = {}): string {
  return execFileSync("git", ["-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args], {
    cwd,
    encoding: "utf8",
    input,
    // Quiet: git's complaints are kept on the thrown error (its `stderr`), not printed.
    stdio: opts.quiet ? ["pipe", "pipe", "pipe"] : undefined,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C", HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ...GIT_ENV },
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** A repository of `source` with one baseline commit, tagged. */
export function initBaselineRepo(dir: string, source: string): void {
  cpSync(source, dir, { recursive: true });
  git(dir, ["init", "-q", "-b", "main"]);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "--allow-empty", "-m", "wirebench baseline"]);
  git(dir, ["tag", BASELINE]);
}

/** Development world as the workspace's docs describe it. */
export interface DevWorld {
  world: string;
  vendors: Record<string, { vendor: string; baseUrl: string; docsUrl: string; env: Record<string, string> }>;
}

/** Writes the workspace into `dir` (which exists and is empty). */
export function buildWorkspace(dir: string, task: Task, dev: DevWorld, seed: number): void {
  const source = taskDir(task.id);
  writeFileSync(join(dir, "PROBLEM.md"), readFileSync(join(source, "PROBLEM.md")));
  initBaselineRepo(join(dir, "repo"), join(source, "repo"));
  if (existsSync(join(source, "materials"))) cpSync(join(source, "materials"), join(dir, "materials"), { recursive: true });
  const single = Object.keys(dev.vendors).length === 1;
  for (const [role, v] of Object.entries(dev.vendors)) {
    const vendor = findVendor(v.vendor)!;
    const out = single ? join(dir, "docs") : join(dir, "docs", role);
    mkdirSync(out, { recursive: true });
    const set = buildDocsSet(vendor, task.docsProfile, { baseUrl: v.baseUrl, examples: buildState(vendor, seed, 0, task.roles[role]?.scale ?? 1) });
    for (const page of set.pages) writeFileSync(join(out, `${page.slug}.md`), page.markdown);
    writeFileSync(join(out, "openapi.json"), `${JSON.stringify(set.openapi, null, 2)}\n`);
    for (const [file, text] of set.descriptions) writeFileSync(join(out, file), text);
  }
  mkdirSync(join(dir, "output"), { recursive: true });
}
