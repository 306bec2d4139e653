/**
 * @module aggregate
 * Leaderboard, matrix, per-model and per-task views of a set of attempts.
 * Lanes are never pooled: every row is one (model, lane). A task's score for
 * a row is the mean over its trials; suite means run over tasks.
 */
import type { TaskMatrix } from "../harness/mutants/matrix.ts";
import { TASKS } from "../../declarations/tasks/index.ts";
import type { PublishedAttempt } from "./runs.ts";
import { allChecks } from "./runs.ts";
import { bootstrapMeanCI, flipRate, mean, pairedBootstrap, passHatK, wilsonCI, type Interval } from "./stats.ts";

/** A row of the leaderboard: one model on one lane. */
export interface LeaderRow {
  rank: number;
  model: string;
  lane: string;
  /** `<model>--<lane>`, file-system safe. */
  id: string;
  tasks: number;
  attempts: number;
  mean_score: number;
  score_ci: Interval;
  solve_rate: number;
  solve_ci: Interval;
  /** pass^k with k = the fewest trials any task had (null with one trial). */
  pass_k: { k: number; value: number } | null;
  by_surface: Record<string, number>;
  by_kind: Record<string, number>;
  by_docs_profile: Record<string, number>;
  tokens: { input: number; cached_input: number; output: number };
  cost_usd: number | null;
  cost_per_solve: number | null;
  vendor_requests_per_solve: number | null;
  /** Attempts scored 0 for want of a verdict. */
  flagged: number;
}

export const slug = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, "_");
export const rowId = (model: string, lane: string) => `${slug(model)}--${slug(lane)}`;
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const roundCI = (ci: Interval, d = 2): Interval => ({ low: round(ci.low, d), high: round(ci.high, d) });

function group<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of xs) out.set(key(x), [...(out.get(key(x)) ?? []), x]);
  return new Map([...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Task id -> that row's trials of it. */
function byTask(attempts: PublishedAttempt[]): Map<string, PublishedAttempt[]> {
  return group(attempts, (a) => a.summary.task);
}

function meanBy(perTask: Map<string, PublishedAttempt[]>, attr: (taskId: string) => string[]): Record<string, number> {
  const sums: Record<string, number[]> = {};
  for (const [task, trials] of perTask) for (const v of attr(task)) (sums[v] ??= []).push(mean(trials.map((t) => t.score)));
  return Object.fromEntries(Object.entries(sums).map(([k, xs]) => [k, round(mean(xs))]));
}

function taskMeta(id: string) {
  return TASKS[id]?.task;
}

export function leaderboard(attempts: PublishedAttempt[]): LeaderRow[] {
  const rows: Omit<LeaderRow, "rank">[] = [];
  for (const [, list] of group(attempts, (a) => rowId(a.summary.model, a.summary.lane))) {
    const { model, lane } = list[0].summary;
    const perTask = byTask(list);
    const taskMeans = [...perTask.values()].map((trials) => mean(trials.map((t) => t.score)));
    const solved = list.filter((a) => a.solved).length;
    const k = Math.min(...[...perTask.values()].map((t) => t.length));
    const costs = list.map((a) => a.summary.usage.cost_usd);
    const cost = costs.every((c) => c === null) ? null : costs.reduce<number>((s, c) => s + (c ?? 0), 0);
    const devRequests = list.reduce((n, a) => n + a.devRequests, 0);
    rows.push({
      model,
      lane,
      id: rowId(model, lane),
      tasks: perTask.size,
      attempts: list.length,
      mean_score: round(mean(taskMeans)),
      score_ci: roundCI(bootstrapMeanCI(taskMeans)),
      solve_rate: round(solved / list.length, 4),
      solve_ci: roundCI(wilsonCI(solved, list.length), 4),
      pass_k: k >= 2 ? { k, value: round(mean([...perTask.values()].map((t) => passHatK(t.filter((a) => a.solved).length, t.length, k))), 4) } : null,
      by_surface: meanBy(perTask, (t) => taskMeta(t)?.surfaces ?? []),
      by_kind: meanBy(perTask, (t) => [taskMeta(t)?.kind ?? "unknown"]),
      by_docs_profile: meanBy(perTask, (t) => [taskMeta(t)?.docsProfile ?? "unknown"]),
      tokens: {
        input: list.reduce((n, a) => n + a.summary.usage.input_tokens, 0),
        cached_input: list.reduce((n, a) => n + a.summary.usage.cached_input_tokens, 0),
        output: list.reduce((n, a) => n + a.summary.usage.output_tokens, 0),
      },
      cost_usd: cost === null ? null : round(cost, 4),
      cost_per_solve: cost === null || solved === 0 ? null : round(cost / solved, 4),
      vendor_requests_per_solve: solved === 0 ? null : round(devRequests / solved, 1),
      flagged: list.filter((a) => a.flag !== null).length,
    });
  }
  rows.sort((a, b) => b.mean_score - a.mean_score || b.solve_rate - a.solve_rate || (a.id < b.id ? -1 : 1));
  return rows.map((r, i) => ({ rank: i + 1, ...r }));
}

export interface MatrixCell {
  score: number;
  solved: number;
  trials: number;
}

export function matrix(attempts: PublishedAttempt[]): { tasks: string[]; rows: { id: string; model: string; lane: string; cells: Record<string, MatrixCell> }[] } {
  const tasks = [...new Set(attempts.map((a) => a.summary.task))].sort();
  const rows = [...group(attempts, (a) => rowId(a.summary.model, a.summary.lane))].map(([id, list]) => ({
    id,
    model: list[0].summary.model,
    lane: list[0].summary.lane,
    cells: Object.fromEntries(
      [...byTask(list)].map(([task, trials]) => [task, { score: round(mean(trials.map((t) => t.score))), solved: trials.filter((t) => t.solved).length, trials: trials.length }]),
    ),
  }));
  return { tasks, rows };
}

/** Suite-level facts that decide whether a ranking means anything. */
export function suiteStats(attempts: PublishedAttempt[]) {
  const perRowTask = group(attempts, (a) => `${rowId(a.summary.model, a.summary.lane)} ${a.summary.task}`);
  const flips = [...perRowTask.entries()].map(([key, trials]) => {
    const [row, task] = key.split(" ");
    return { row, task, trials: trials.length, flip_rate: round(flipRate(trials.map((t) => t.solved)), 4) };
  });
  const tasks = [...byTask(attempts)];
  return {
    flip_rates: flips,
    mean_flip_rate: round(mean(flips.filter((f) => f.trials > 1).map((f) => f.flip_rate)), 4),
    tasks_nobody_solves: tasks.filter(([, list]) => list.every((a) => !a.solved)).map(([t]) => t),
    tasks_everybody_solves: tasks.filter(([, list]) => list.every((a) => a.solved)).map(([t]) => t),
  };
}

/** Paired comparison of two rows over the tasks both attempted. */
export function compareRows(attempts: PublishedAttempt[], a: string, b: string) {
  const perTask = (id: string) => new Map([...byTask(attempts.filter((x) => rowId(x.summary.model, x.summary.lane) === id))].map(([t, trials]) => [t, mean(trials.map((x) => x.score))]));
  const A = perTask(a);
  const B = perTask(b);
  const common = [...A.keys()].filter((t) => B.has(t)).sort();
  const r = pairedBootstrap(
    common.map((t) => A.get(t)!),
    common.map((t) => B.get(t)!),
  );
  return { a, b, tasks: common.length, mean_diff: round(r.diff), diff_ci: roundCI(r.ci), p_order_reversed: round(r.reversed, 4) };
}

/** Per-task view: every row's result, the checks, and which checks separate solvers from the rest. */
/**
 * A task's page data. `mutants` is the task's row of the mutant-kill matrix
 * (`wirebench mutants`, committed as bench-results/mutants.json) when there is one:
 * each check lists the mutants it killed, and the page lists every mutant.
 */
export function taskView(taskId: string, attempts: PublishedAttempt[], ticket: string, mutants: TaskMatrix | null = null) {
  const entry = TASKS[taskId];
  const mine = attempts.filter((a) => a.summary.task === taskId);
  // Each check with its basis (the ticket sentence or vendor behaviour it enforces): together they are the task's real specification.
  const checkNames = entry?.gold?.checks.map((c) => ({ name: c.name, level: c.level, mandatory: c.mandatory, basis: c.basis ?? null })) ?? [];
  const passRate = (list: PublishedAttempt[], name: string) => {
    const graded = list.filter((a) => a.verdict);
    if (!graded.length) return null;
    return round(graded.filter((a) => allChecks(a.verdict!).some((c) => c.name === name && c.ok)).length / graded.length, 4);
  };
  const solvers = mine.filter((a) => a.solved);
  const others = mine.filter((a) => !a.solved);
  const checks = checkNames.map((c) => {
    const s = passRate(solvers, c.name);
    const o = passRate(others, c.name);
    const killed = mutants ? mutants.mutants.filter((m) => m.killedBy.some((k) => k.endsWith(`/${c.name}`))).map((m) => m.id) : null;
    return { ...c, pass_rate: passRate(mine, c.name), pass_rate_solvers: s, pass_rate_others: o, separation: s === null || o === null ? null : round(s - o, 4), mutants_killed: killed };
  });
  return {
    task: taskId,
    title: entry?.task.title ?? taskId,
    kind: entry?.task.kind ?? null,
    surfaces: entry?.task.surfaces ?? [],
    docs_profile: entry?.task.docsProfile ?? null,
    primary_mechanic: entry?.task.primaryMechanic ?? null,
    ticket,
    attempts: mine.length,
    solve_rate: mine.length ? round(solvers.length / mine.length, 4) : 0,
    checks,
    separating_checks: checks
      .filter((c) => (c.separation ?? 0) > 0)
      .sort((x, y) => (y.separation ?? 0) - (x.separation ?? 0))
      .map((c) => c.name),
    /** Mandatory checks only broken requests of a mistake aimed elsewhere killed (see the mutant matrix). */
    mutant_collateral_only: mutants ? mutants.collateralOnly : null,
    mutants: mutants
      ? mutants.mutants.map((m) => ({ id: m.id, mistake: m.mistake, shared: m.shared, status: m.status, score: m.score, killed_by: m.killedBy, lowered_by: m.loweredBy, note: m.note }))
      : null,
    results: [...group(mine, (a) => rowId(a.summary.model, a.summary.lane))].map(([id, list]) => ({
      id,
      model: list[0].summary.model,
      lane: list[0].summary.lane,
      trials: list.length,
      mean_score: round(mean(list.map((a) => a.score))),
      solved: list.filter((a) => a.solved).length,
      attempts: list.map((a) => ({ attempt: a.summary.attempt, trial: a.summary.trial, score: a.score, solved: a.solved, flag: a.flag })),
    })),
  };
}
