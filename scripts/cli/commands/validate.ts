import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { type SingleBar, MultiBar, Presets } from "cli-progress";
import type { TaskEntry } from "../../../declarations/tasks/index.ts";
import { manifestFrom } from "../../../workers/grading/score.ts";
import type { Verdict } from "../../../evidence/verdict.ts";
import { gradeRepo } from "../../harness/grade-repo.ts";
import { checkBars, type BarResult } from "../../harness/probe-bars.ts";
import { hasAlt, probeSource, removeDir, taskDir, type Probe } from "../../harness/workspace.ts";
import { UsageError } from "../errors.ts";
import { jobsOf, tasksNamed } from "./task-args.ts";
import type { FarmHandle } from "../../farm/control-client.ts";
import { freshFarm, pool } from "../../harness/grading-pool.ts";
import { heldOutSource } from "../../harness/held-out.ts";

/** Options of `wirebench validate`. */
export interface ValidateOptions {
  json?: boolean;
  writeGold?: boolean;
  runs: string;
  jobs?: string;
  farms?: string;
  farm?: string;
  otherSeeds?: string;
}

interface TaskReport {
  task: string;
  seconds: number;
  /** Grading seconds of each probe run, in the order they were handed out (gold once per run). */
  probeSeconds: { probe: Probe; seconds: number }[];
  /** Per probe; `alt` is null for a task without `solutions/alt/`. */
  scores: Record<Exclude<Probe, "alt">, number> & { alt: number | null };
  bars: BarResult[];
  ok: boolean;
}

export async function gradeProbe(farm: FarmHandle, entry: TaskEntry, probe: Probe, reference: "gold" | "self" = "gold", seed?: number): Promise<Verdict> {
  const source = probeSource(entry.task, probe);
  try {
    return await gradeRepo({ farm, task: entry.task, repoDir: source, reference, seed });
  } catch (err) {
    // One grading the farm could not complete fails that probe's bar, not the whole validation.
    const message = err instanceof Error ? err.message : String(err);
    return {
      schema: "wirebench-verdict/1",
      scorer: "task-score-v4-mandatory-gated",
      task: entry.task.id,
      runId: "",
      seed: seed ?? entry.task.seed,
      checks: { l1: [], l2: [], l3: [] },
      raw: 0,
      max: entry.gold?.max ?? 0,
      score: 0,
      solved: false,
      error: { class: "benchmark_infrastructure_failure", message },
    };
  } finally {
    if (probe !== "empty") removeDir(source);
  }
}

/** Grades gold against itself and writes the manifest every later grade is scored with. */
async function writeGold(entries: TaskEntry[]): Promise<void> {
  const farm = await freshFarm(undefined);
  try {
    for (const entry of entries) {
      const v = await gradeProbe(farm, entry, "gold", "self");
      const failed = [...v.checks.l1, ...v.checks.l2, ...v.checks.l3].filter((c) => !c.ok);
      if (v.error || failed.length) throw new UsageError(`gold of ${entry.task.id} does not pass its own checks: ${v.error?.message ?? failed.map((c) => `${c.name} (${c.detail})`).join("; ")}`);
      const manifest = manifestFrom(v);
      writeFileSync(join(taskDir(entry.task.id), "gold-manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
      // A held-out task's manifest belongs in its own folder too: the next mount copies it from there.
      const source = entry.heldOut ? heldOutSource(entry.task.id) : null;
      if (source) writeFileSync(join(source, "gold-manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
      console.error(`${entry.task.id}: gold manifest written (${manifest.checks.length} checks, max ${manifest.max})`);
    }
  } finally {
    await farm.close();
  }
}

/** Seeds gold is graded on besides each task's own, in this order. */
export const OTHER_SEEDS = [7, 101, 90210, 4242, 31337, 65537] as const;

/** The first `n` seeds of OTHER_SEEDS that are not the task's own. */
export function otherSeedsOf(taskSeed: number, n: number): number[] {
  return OTHER_SEEDS.filter((s) => s !== taskSeed).slice(0, n);
}

/**
 * `wirebench validate --other-seeds N`: gold graded on N seeds other than
 * the task's, each against the task's gold manifest. A judge tuned to one
 * seed's data fails here; each grading must score 100 and be solved.
 */
async function goldAcrossSeeds(entries: TaskEntry[], n: number, jobsLimit: number, farmCount: number, opts: ValidateOptions): Promise<void> {
  const farms = await Promise.all(Array.from({ length: farmCount }, () => freshFarm(opts.farm)));
  const jobs = entries.flatMap((entry) => otherSeedsOf(entry.task.seed, n).map((seed) => ({ entry, seed })));
  const started = performance.now();
  try {
    let handedOut = 0;
    const graded = await pool(jobs, jobsLimit, async ({ entry, seed }) => {
      const v = await gradeProbe(farms[handedOut++ % farms.length], entry, "gold", "gold", seed);
      if (!opts.json) console.error(`${entry.task.id}: gold on seed ${seed} ${v.score}`);
      return { task: entry.task.id, seed, score: v.score, solved: v.solved, error: v.error?.message ?? null };
    });
    const failed = graded.filter((g) => g.score !== 100 || !g.solved);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    if (opts.json) console.log(JSON.stringify({ ok: failed.length === 0, seconds, gradings: graded }, null, 2));
    else {
      for (const f of failed) console.log(`${f.task} seed ${f.seed}: gold scored ${f.score}${f.solved ? "" : ", not solved"}${f.error ? ` (${f.error})` : ""}`);
      console.log(`gold scored 100 on ${graded.length - failed.length} of ${graded.length} gradings (${entries.length} tasks x ${n} other seeds) in ${seconds}s wall`);
    }
    if (failed.length) process.exitCode = 1;
  } finally {
    await Promise.all(farms.map((f) => f.close()));
  }
}

/** `wirebench validate [T...]`: probe bars for each task; exit 1 when any bar fails. */
export async function validate(ids: string[], opts: ValidateOptions): Promise<void> {
  const entries = tasksNamed(ids);
  if (!entries.length) throw new UsageError("no tasks to validate");
  if (!/^[1-9]\d*$/.test(opts.runs)) throw new UsageError(`--runs must be a positive integer, got "${opts.runs}"`);
  const runs = Number(opts.runs);
  const jobsLimit = jobsOf(opts.jobs);
  if (opts.farms !== undefined && !/^[1-9]\d*$/.test(opts.farms)) throw new UsageError(`--farms must be a positive integer, got "${opts.farms}"`);
  if (opts.farms !== undefined && opts.farm) throw new UsageError("--farms starts local farms; it cannot be combined with --farm");
  // One farm runs its Worker's JavaScript on one thread: past about one core it is the bottleneck, so gradings spread over several.
  const farmCount = opts.farm ? 1 : opts.farms ? Number(opts.farms) : Math.min(2, availableParallelism());
  if (opts.writeGold) {
    if (opts.farm) throw new UsageError("--write-gold needs the local farm: gold manifests are bundled into the Worker");
    await writeGold(entries);
    console.error("gold manifests written; validating against them on a rebuilt farm");
    const { spawnSync } = await import("node:child_process");
    const again = spawnSync(process.execPath, [process.argv[1], "validate", ...ids, "--runs", String(runs), ...(opts.jobs ? ["--jobs", opts.jobs] : []), ...(opts.json ? ["--json"] : [])], {
      stdio: "inherit",
    });
    process.exit(again.status ?? 1);
  }
  for (const e of entries) if (!e.gold) throw new UsageError(`${e.task.id} has no gold manifest; run wirebench validate ${e.task.id} --write-gold`);
  if (opts.otherSeeds !== undefined) {
    if (!/^[1-9]\d*$/.test(opts.otherSeeds) || Number(opts.otherSeeds) > OTHER_SEEDS.length - 1)
      throw new UsageError(`--other-seeds must be an integer from 1 to ${OTHER_SEEDS.length - 1}, got "${opts.otherSeeds}"`);
    if (opts.writeGold) throw new UsageError("--other-seeds grades gold as it is; it cannot be combined with --write-gold");
    await goldAcrossSeeds(entries, Number(opts.otherSeeds), jobsLimit, farmCount, opts);
    return;
  }

  const farms = await Promise.all(Array.from({ length: farmCount }, () => freshFarm(opts.farm)));
  const probesOf = (entry: TaskEntry): Probe[] => ["empty", "stub", "naive", ...(hasAlt(entry.task.id) ? (["alt"] as Probe[]) : []), ...Array<Probe>(runs).fill("gold")];
  const jobs = entries.flatMap((entry) => probesOf(entry).map((probe) => ({ entry, probe })));
  const tty = process.stderr.isTTY && !opts.json;
  const bars = tty ? new MultiBar({ format: " {task} [{bar}] {value}/{total} {probe}", hideCursor: true, clearOnComplete: false }, Presets.shades_classic) : null;
  const progress = new Map<string, SingleBar | null>(entries.map((e) => [e.task.id, bars ? bars.create(probesOf(e).length, 0, { task: e.task.id, probe: "" }) : null]));
  const started = performance.now();
  try {
    // Gradings mostly wait (on the connector, on rate-limit cooldowns), so more run at once than there are cores.
    let handedOut = 0;
    const graded = await pool(jobs, jobsLimit, async ({ entry, probe }) => {
      const t0 = performance.now();
      const verdict = await gradeProbe(farms[handedOut++ % farms.length], entry, probe);
      const bar = progress.get(entry.task.id);
      if (bar) bar.increment({ probe });
      else console.error(`${entry.task.id}: ${probe} ${verdict.score}`);
      return { task: entry.task.id, probe, verdict, seconds: (performance.now() - t0) / 1000 };
    });
    const reports = entries.map((entry): TaskReport => {
      const mine = graded.filter((g) => g.task === entry.task.id);
      const one = (probe: Probe) => mine.find((g) => g.probe === probe)!.verdict;
      const gold = mine.filter((g) => g.probe === "gold").map((g) => g.verdict);
      const alt = mine.find((g) => g.probe === "alt")?.verdict;
      const results = checkBars({ empty: one("empty"), stub: one("stub"), naive: one("naive"), gold, alt });
      const seconds = Math.round(mine.reduce((s, g) => s + g.seconds, 0) * 10) / 10;
      return {
        task: entry.task.id,
        seconds,
        probeSeconds: mine.map((g) => ({ probe: g.probe, seconds: Math.round(g.seconds * 10) / 10 })),
        scores: { empty: one("empty").score, stub: one("stub").score, naive: one("naive").score, gold: gold[0].score, alt: alt ? alt.score : null },
        bars: results,
        ok: results.every((b) => b.ok),
      };
    });
    bars?.stop();
    const total = Math.round((performance.now() - started) / 100) / 10;
    if (opts.json) console.log(JSON.stringify({ ok: reports.every((r) => r.ok), seconds: total, concurrency: jobsLimit, farms: farms.length, tasks: reports }, null, 2));
    else {
      console.log(`task       gold  empty  stub  naive    alt  flake  grading-s`);
      for (const r of reports) {
        const mark = (bar: string) => (r.bars.find((b) => b.bar === bar)!.ok ? "" : "!");
        console.log(
          `${r.task}  ${String(r.scores.gold).padStart(4)}${mark("gold")}  ${String(r.scores.empty).padStart(5)}${mark("empty")}  ${String(r.scores.stub).padStart(4)}${mark("stub")}  ${String(r.scores.naive).padStart(5)}${mark("naive")}  ${(r.scores.alt === null ? "-" : String(r.scores.alt)).padStart(5)}${r.bars.some((b) => b.bar === "alt") ? mark("alt") : ""}  ${r.bars.find((b) => b.bar === "flake")!.ok ? "  ok" : "FAIL"}  ${String(r.seconds).padStart(7)}`,
        );
        for (const b of r.bars.filter((x) => !x.ok)) console.log(`  ${b.bar}: ${b.detail}`);
      }
      console.log(
        `${reports.filter((r) => r.ok).length}/${reports.length} tasks pass every bar; ${jobs.length} gradings in ${total}s wall (${jobsLimit} at a time over ${farms.length} farm${farms.length === 1 ? "" : "s"})`,
      );
    }
    if (!reports.every((r) => r.ok)) process.exitCode = 1;
  } finally {
    await Promise.all(farms.map((f) => f.close()));
  }
}
