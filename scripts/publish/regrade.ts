/**
 * @module regrade
 * `wirebench regrade`: re-derives every verdict from the published evidence
 * alone (each attempt's `evidence.json`: the sealed run the grader read),
 * running every judge and conduct check again with no farm and no network,
 * and reports each verdict that differs from the published one.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { findTask } from "../../declarations/tasks/index.ts";
import { findVendor } from "../../declarations/vendors/index.ts";
import { gradeRun, type SealedRun } from "../../workers/grading/grade-run.ts";
import type { GoldManifest, Verdict } from "../../evidence/verdict.ts";
import { bundleDirs } from "./runs.ts";

export interface RegradeDifference {
  attempt: string;
  /** What differs: a check (by name), `score`, `solved`, `error`, `selfReported`, or `missing`. */
  what: string;
  published: unknown;
  regraded: unknown;
}

/**
 * What a comparison of verdicts looks at: every check's outcome and value, the score and the error
 * class (detail text and run ids may vary). A check of gold's that a verdict does not list reads as
 * failed at gold's fail value, as the scorer counts it: verdicts written before unrecorded checks
 * were listed compare equal to their regrades, which list them.
 */
function shape(v: Verdict, gold: GoldManifest | null) {
  const checks = new Map<string, string>();
  const row = (level: string, ok: boolean, value: number, mandatory: boolean) => `${level} ${ok ? "ok" : "fail"} ${value} ${mandatory ? "mandatory" : ""}`.trim();
  for (const level of ["l1", "l2", "l3"] as const) for (const c of v.checks[level]) checks.set(c.name, row(level, c.ok, c.value, c.mandatory));
  for (const g of gold?.checks ?? []) if (!checks.has(g.name)) checks.set(g.name, row(g.level, false, g.fail, g.mandatory));
  return { checks, score: v.score, solved: v.solved, error: v.error?.class ?? null, selfReported: v.selfReported ?? false };
}

/** A bundle's sealed evidence (`evidence.json`, or `evidence.json.gz` in a published site). */
function readEvidence(dir: string): SealedRun | null {
  if (existsSync(join(dir, "evidence.json"))) return JSON.parse(readFileSync(join(dir, "evidence.json"), "utf8")) as SealedRun | null;
  if (existsSync(join(dir, "evidence.json.gz"))) return JSON.parse(gunzipSync(readFileSync(join(dir, "evidence.json.gz"))).toString("utf8")) as SealedRun | null;
  return null;
}

export function regrade(dir: string): { attempts: number; regraded: number; differences: RegradeDifference[] } {
  const differences: RegradeDifference[] = [];
  let regraded = 0;
  const dirs = bundleDirs(dir);
  for (const d of dirs) {
    const summary = JSON.parse(readFileSync(join(d, "summary.json"), "utf8")) as { attempt: string; task: string };
    const published = existsSync(join(d, "verdict.json")) ? (JSON.parse(readFileSync(join(d, "verdict.json"), "utf8")) as Verdict | null) : null;
    const sealed = readEvidence(d);
    if (!published && !sealed) continue; // never graded: nothing to re-derive
    if (!published || !sealed) {
      differences.push({ attempt: summary.attempt, what: "missing", published: published ? "verdict" : null, regraded: sealed ? "evidence" : null });
      continue;
    }
    const entry = findTask(summary.task);
    if (!entry) {
      differences.push({ attempt: summary.attempt, what: "task", published: summary.task, regraded: "unknown task" });
      continue;
    }
    const vendors = Object.fromEntries(Object.entries(entry.task.roles).map(([role, r]) => [role, findVendor(r.vendor)!]));
    const again = gradeRun(entry.task, vendors, sealed, entry.gold);
    regraded += 1;
    const a = shape(published, entry.gold);
    const b = shape(again, entry.gold);
    for (const name of new Set([...a.checks.keys(), ...b.checks.keys()])) {
      if (a.checks.get(name) !== b.checks.get(name)) differences.push({ attempt: summary.attempt, what: name, published: a.checks.get(name) ?? null, regraded: b.checks.get(name) ?? null });
    }
    for (const key of ["score", "solved", "error", "selfReported"] as const) if (a[key] !== b[key]) differences.push({ attempt: summary.attempt, what: key, published: a[key], regraded: b[key] });
  }
  return { attempts: dirs.length, regraded, differences };
}
