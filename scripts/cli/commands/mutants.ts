/**
 * @module mutants
 * `wirebench mutants [T...]`: grades every mutant of each task's gold and
 * prints the mutant-kill matrix with its bars (exit 1 when a bar fails).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import type { TaskEntry } from "../../../declarations/tasks/index.ts";
import type { FarmHandle } from "../../farm/control-client.ts";
import { gradeRepo } from "../../harness/grade-repo.ts";
import { freshFarm, pool } from "../../harness/grading-pool.ts";
import { applyMutant } from "../../harness/mutants/apply.ts";
import { buildMatrix, judgeMutant, type MutantResult, type TaskMatrix } from "../../harness/mutants/matrix.ts";
import { type PlannedMutant, planMutants } from "../../harness/mutants/task-mutants.ts";
import { probeSource, removeDir } from "../../harness/workspace.ts";
import { UsageError } from "../errors.ts";
import { jobsOf, tasksNamed } from "./task-args.ts";

export interface MutantsOptions {
  json?: boolean;
  jobs?: string;
  farm?: string;
  out?: string;
  only?: string;
}

async function gradeMutant(farm: FarmHandle, entry: TaskEntry, m: PlannedMutant): Promise<MutantResult> {
  const head = { id: m.id, mistake: m.mistake, shared: m.shared, aimsAt: m.aimsAt ?? null };
  if (m.equivalent) return { ...head, status: "equivalent", score: null, killedBy: [], loweredBy: [], note: m.equivalent, seconds: 0 };
  const t0 = performance.now();
  const dir = probeSource(entry.task, "gold");
  try {
    applyMutant(dir, m);
    const v = await gradeRepo({ farm, task: entry.task, repoDir: dir, reference: "gold" });
    return judgeMutant(head, v, (performance.now() - t0) / 1000);
  } catch (err) {
    return { ...head, status: "error", score: null, killedBy: [], loweredBy: [], note: err instanceof Error ? err.message : String(err), seconds: (performance.now() - t0) / 1000 };
  } finally {
    removeDir(dir);
  }
}

function printMatrix(r: TaskMatrix): void {
  const counts = (s: string) => r.mutants.filter((m) => m.status === s).length;
  console.log(
    `${r.task}  ${r.ok ? "ok  " : "FAIL"}  ${r.mutants.length} mutants: ${counts("killed")} killed, ${counts("lowered")} lowered, ${counts("survived")} survived, ${counts("equivalent")} equivalent, ${counts("error")} errors`,
  );
  for (const m of r.mutants) {
    const by = m.status === "killed" ? m.killedBy.join(", ") : m.status === "lowered" ? m.loweredBy.join(", ") : (m.note ?? "");
    console.log(`  ${m.status.padEnd(10)} ${String(m.score ?? "-").padStart(3)}  ${m.id}${by ? `: ${by}` : ""}`);
  }
  if (r.collateralOnly.length) console.log(`  killed only as collateral of a mistake aimed elsewhere: ${r.collateralOnly.join(", ")}`);
  for (const b of r.bars.filter((x) => !x.ok)) console.log(`  bar ${b.bar}: ${b.detail}`);
}

export async function mutants(ids: string[], opts: MutantsOptions): Promise<void> {
  const entries = tasksNamed(ids);
  const jobsLimit = jobsOf(opts.jobs);
  for (const e of entries) if (!e.gold) throw new UsageError(`${e.task.id} has no gold manifest`);
  const only = opts.only ? new Set(opts.only.split(",")) : null;
  const plans = await Promise.all(entries.map(async (entry) => ({ entry, mutants: (await planMutants(entry.task)).filter((m) => !only || only.has(m.id)) })));
  const unknown = [...(only ?? [])].filter((id) => !plans.some((p) => p.mutants.some((m) => m.id === id)));
  if (unknown.length) throw new UsageError(`--only names no mutant of these tasks: ${unknown.join(", ")}`);
  const farmCount = opts.farm ? 1 : Math.min(2, availableParallelism());
  const farms = await Promise.all(Array.from({ length: farmCount }, () => freshFarm(opts.farm)));
  const started = performance.now();
  try {
    const jobs = plans.flatMap((p) => p.mutants.map((m) => ({ entry: p.entry, m })));
    let handedOut = 0;
    const graded = await pool(jobs, jobsLimit, async ({ entry, m }) => {
      const r = await gradeMutant(farms[handedOut++ % farms.length], entry, m);
      if (!opts.json) console.error(`${entry.task.id}: ${m.id} ${r.status}${r.score === null ? "" : ` ${r.score}`}`);
      return { task: entry.task.id, r };
    });
    const reports = plans.map((p) =>
      buildMatrix(
        p.entry.task.id,
        p.entry.gold!,
        graded.filter((g) => g.task === p.entry.task.id).map((g) => g.r),
      ),
    );
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const summary = { ok: reports.every((r) => r.ok), seconds, gradings: jobs.filter((j) => !j.m.equivalent).length, tasks: reports };
    if (opts.out) {
      mkdirSync(dirname(opts.out), { recursive: true });
      writeFileSync(opts.out, JSON.stringify(summary, null, 2) + "\n");
    }
    if (opts.json) console.log(JSON.stringify(summary, null, 2));
    else {
      for (const r of reports) printMatrix(r);
      const all = reports.flatMap((r) => r.mutants);
      console.log(
        `${reports.filter((r) => r.ok).length}/${reports.length} tasks pass every mutant bar; ${reports.reduce((n, r) => n + r.checks.filter((c) => c.mandatory).length, 0)} mandatory checks, ${reports.reduce((n, r) => n + r.collateralOnly.length, 0)} of them killed only as collateral; ${all.length} mutants (${all.filter((m) => m.status === "killed").length} killed, ${all.filter((m) => m.status === "lowered").length} lowered, ${all.filter((m) => m.status === "survived").length} survived) in ${seconds}s wall`,
      );
    }
    if (!summary.ok) process.exitCode = 1;
  } finally {
    await Promise.all(farms.map((f) => f.close()));
  }
}
