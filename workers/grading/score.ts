import type { Check, CheckLevel, GoldManifest, Verdict } from "../../evidence/verdict.ts";

/** Collapses repeated names to their worst instance (a failure anywhere wins), keeping first-seen order. */
export function dedupe(checks: Check[]): Check[] {
  const byName = new Map<string, Check>();
  for (const c of checks) {
    const prior = byName.get(c.name);
    if (!prior || (prior.ok && !c.ok) || (prior.ok === c.ok && c.value < prior.value)) byName.set(c.name, c);
  }
  return [...byName.values()];
}

/** Sum of the positive values of the checks gold passes. */
export function maxScore(gold: GoldManifest["checks"]): number {
  return gold.reduce((sum, c) => sum + (c.ok && c.pass > 0 ? c.pass : 0), 0);
}

/** task-score-v4-mandatory-gated: the run's checks projected onto gold's, gated by mandatory checks. */
export function scoreChecks(checks: Check[], gold: GoldManifest): { raw: number; max: number; score: number; solved: boolean } {
  const run = new Map(dedupe(checks).map((c) => [c.name, c]));
  let raw = 0;
  let solved = gold.checks.some((g) => g.mandatory);
  for (const g of gold.checks) {
    const c = run.get(g.name);
    const ok = c?.ok ?? false;
    raw += ok ? g.pass : g.fail;
    if (g.mandatory && !ok) solved = false;
  }
  for (const c of run.values()) if (c.mandatory && !c.ok) solved = false;
  const max = gold.max;
  if (max <= 0) throw new Error(`gold manifest of ${gold.task} has no positive checks`);
  const score = solved ? Math.round((10000 * Math.min(Math.max(raw, 0), max)) / max) / 100 : 0;
  return { raw, max, score, solved };
}

/** Groups checks by level for the verdict. */
export function byLevel(checks: Check[]): Record<CheckLevel, Check[]> {
  const out: Record<CheckLevel, Check[]> = { l1: [], l2: [], l3: [] };
  for (const c of dedupe(checks)) out[c.level].push(c);
  return out;
}

/** The manifest gold's verdict implies. */
export function manifestFrom(verdict: Verdict): GoldManifest {
  const checks = [...verdict.checks.l1, ...verdict.checks.l2, ...verdict.checks.l3].map(({ scenario, name, level, ok, pass, fail, mandatory, basis }) => ({
    ...(scenario ? { scenario } : {}),
    name,
    level,
    ok,
    pass,
    fail,
    mandatory,
    basis,
  }));
  return { scorer: "task-score-v4-mandatory-gated", task: verdict.task, checks, max: maxScore(checks) };
}
