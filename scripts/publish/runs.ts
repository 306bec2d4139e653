/**
 * @module runs
 * Reads attempt bundles (`runs/<attempt>/`, from one folder or merged from the
 * folders of a sharded sweep's slices) and scores each again from its
 * verdict with task-score-v4-mandatory-gated against the task's committed gold
 * manifest: a published score is never copied from a summary. An attempt
 * without a verdict (ungraded, or not finished) scores 0 and is flagged.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { findTask } from "../../declarations/tasks/index.ts";
import { dedupe, scoreChecks } from "../../workers/grading/score.ts";
import type { Check, Verdict } from "../../evidence/verdict.ts";
import type { AttemptSummary } from "../agent/attempt.ts";

/** One attempt as publication sees it. */
export interface PublishedAttempt {
  dir: string;
  summary: AttemptSummary;
  verdict: Verdict | null;
  /** Score recomputed from the verdict (0 when there is none). */
  score: number;
  solved: boolean;
  /** Why the attempt counts as 0 without a verdict of its own, if it does. */
  flag: string | null;
  /** Vendor requests the agent made against its development world. */
  devRequests: number;
  /** Its verdict was sealed by a participant's own harness: published, flagged, never on the leaderboard. */
  selfReported: boolean;
}

/** The flag of a self-reported attempt. */
export const SELF_REPORTED_FLAG = "self-reported: sealed by a participant's own harness; kept off the leaderboard until the operator grades it";

export const SCORER = "task-score-v4-mandatory-gated";

/**
 * Folders that hold an attempt bundle, sorted: the bundles of a runs folder
 * (`runs/<attempt>/`), of a folder of runs folders (`slices/<slice>/<attempt>/`,
 * what the shards of a sweep leave), or of a published site
 * (`data/v1/wirebench/attempts/<model>/<task>/<attempt>/`).
 */
export function bundleDirs(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const site = join(dir, "data", "v1", "wirebench", "attempts");
  const found: string[] = [];
  const walk = (d: string, depth: number) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      // Hidden folders are not bundles (grade-all writes a bundle in `.partial-*` and renames it into place).
      if (name.startsWith(".") || !statSync(p).isDirectory()) continue;
      if (existsSync(join(p, "summary.json"))) found.push(p);
      else if (depth > 0) walk(p, depth - 1);
    }
  };
  walk(existsSync(site) ? site : dir, existsSync(site) ? 2 : 1);
  return found;
}

/** Two bundles of one attempt that are not the same bytes: a merge cannot pick one. */
export class DuplicateAttempt extends Error {}

/** The files of a bundle folder and their bytes, to tell a copy from another run of the same attempt. */
function sameBundle(a: string, b: string): boolean {
  const names = (d: string) => readdirSync(d).sort();
  const [na, nb] = [names(a), names(b)];
  return na.length === nb.length && na.every((n, i) => n === nb[i] && readFileSync(join(a, n)).equals(readFileSync(join(b, n))));
}

/**
 * The bundles of several runs folders (slices of one sweep) merged, sorted by
 * attempt id. An attempt found twice is kept once when both bundles are the
 * same bytes (a slice given twice, a copied folder); two different bundles of
 * one attempt are a DuplicateAttempt naming it and both folders.
 */
export function mergedBundleDirs(dirs: string[]): string[] {
  const byAttempt = new Map<string, string>();
  for (const dir of dirs)
    for (const bundle of bundleDirs(dir)) {
      const id = readJson<AttemptSummary>(join(bundle, "summary.json"))!.attempt;
      const seen = byAttempt.get(id);
      if (seen === undefined) byAttempt.set(id, bundle);
      else if (seen !== bundle && !sameBundle(seen, bundle)) throw new DuplicateAttempt(`attempt ${id} is in two runs folders with different bundles (${seen} and ${bundle}): keep one`);
    }
  return [...byAttempt.keys()].sort().map((id) => byAttempt.get(id)!);
}

function readJson<T>(file: string): T | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : null;
}

export function allChecks(v: Verdict): Check[] {
  return [...v.checks.l1, ...v.checks.l2, ...v.checks.l3];
}

/** Loads and re-scores every bundle of a runs folder, or of several merged (mergedBundleDirs). */
export function loadAttempts(runsDirs: string | string[]): PublishedAttempt[] {
  return mergedBundleDirs(typeof runsDirs === "string" ? [runsDirs] : runsDirs).map((dir) => {
    const summary = readJson<AttemptSummary>(join(dir, "summary.json"))!;
    const verdict = readJson<Verdict>(join(dir, "verdict.json"));
    const requests = readJson<{ development?: { roles?: Record<string, unknown[]> } }>(join(dir, "vendor-requests.json"));
    const devRequests = Object.values(requests?.development?.roles ?? {}).reduce((n, rows) => n + rows.length, 0);
    const gold = findTask(summary.task)?.gold ?? null;
    const selfReported = verdict?.selfReported === true;
    if (!verdict) return { dir, summary, verdict, score: 0, solved: false, flag: `not graded (${summary.failure_class})`, devRequests, selfReported };
    if (!gold) return { dir, summary, verdict, score: 0, solved: false, flag: `task ${summary.task} has no gold manifest`, devRequests, selfReported };
    if (verdict.error) return { dir, summary, verdict, score: 0, solved: false, flag: `verdict error: ${verdict.error.class}`, devRequests, selfReported };
    const s = scoreChecks(dedupe(allChecks(verdict)), gold);
    return { dir, summary, verdict, score: s.score, solved: s.solved, flag: selfReported ? SELF_REPORTED_FLAG : null, devRequests, selfReported };
  });
}
