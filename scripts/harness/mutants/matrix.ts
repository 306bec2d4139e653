/**
 * @module matrix
 * The mutant-kill matrix of one task: which mandatory check zeroed which
 * mutant, which soft check lowered it, which mutants survived at 100, and the
 * bars over it.
 */
import type { Check, GoldManifest, Verdict } from "../../../evidence/verdict.ts";

export type MutantStatus = "killed" | "lowered" | "survived" | "equivalent" | "error";

export interface MutantResult {
  id: string;
  mistake: string;
  /** From a shared generator rather than the task's own list. */
  shared: boolean;
  /** Check names the mistake is aimed at, when it breaks more than it means to; null: every kill counts as aimed. */
  aimsAt?: string[] | null;
  status: MutantStatus;
  score: number | null;
  /** Mandatory checks (scenario/name) it failed: each one alone zeroes it. */
  killedBy: string[];
  /** Soft checks it failed. */
  loweredBy: string[];
  /** Why it was not graded or the grading failed; for an equivalent mutant, the task's reason. */
  note: string | null;
  seconds: number;
}

export interface MatrixBar {
  bar: "fits" | "dead-checks" | "survivors";
  ok: boolean;
  detail: string;
}

export interface TaskMatrix {
  task: string;
  /** Gold's checks, scenario/name, mandatory first. */
  checks: { key: string; mandatory: boolean; level: string }[];
  mutants: MutantResult[];
  bars: MatrixBar[];
  /**
   * Mandatory checks (scenario/name) killed only as collateral: by mutants aimed at other
   * checks, whose broken requests fail this one too. They pass the dead-checks bar and are
   * reported: no mistake aimed at them was found.
   */
  collateralOnly: string[];
  ok: boolean;
}

/** scenario/name: the key a check is matched by across verdicts. */
export function checkKey(c: Pick<Check, "scenario" | "name">): string {
  return `${c.scenario ?? "?"}/${c.name}`;
}

/** Classifies one graded mutant. */
export function judgeMutant(m: { id: string; mistake: string; shared: boolean; aimsAt?: string[] | null }, v: Verdict, seconds: number): MutantResult {
  const all = [...v.checks.l1, ...v.checks.l2, ...v.checks.l3];
  const killedBy = all.filter((c) => c.mandatory && !c.ok).map(checkKey);
  const loweredBy = all.filter((c) => !c.mandatory && !c.ok).map(checkKey);
  const base = { ...m, score: v.score, killedBy, loweredBy, seconds: Math.round(seconds * 10) / 10 };
  if (v.error) return { ...base, status: "error", note: `${v.error.class}: ${v.error.message}` };
  const status: MutantStatus = !v.solved ? "killed" : v.score < 100 || loweredBy.length ? "lowered" : "survived";
  return { ...base, status, note: null };
}

/** The matrix and its bars: every mutant fits gold, every mandatory check kills one, no mutant survives. */
export function buildMatrix(task: string, manifest: GoldManifest, mutants: MutantResult[]): TaskMatrix {
  const checks = [...manifest.checks].sort((a, b) => Number(b.mandatory) - Number(a.mandatory)).map((c) => ({ key: checkKey(c), mandatory: c.mandatory, level: c.level }));
  const killers = new Set(mutants.flatMap((m) => m.killedBy));
  const dead = checks.filter((c) => c.mandatory && !killers.has(c.key)).map((c) => c.key);
  const aimed = (m: MutantResult, key: string) => !m.aimsAt || m.aimsAt.some((name) => key.endsWith(`/${name}`));
  const collateralOnly = checks.filter((c) => c.mandatory && killers.has(c.key) && !mutants.some((m) => m.killedBy.includes(c.key) && aimed(m, c.key))).map((c) => c.key);
  const broken = mutants.filter((m) => m.status === "error");
  const survivors = mutants.filter((m) => m.status === "survived");
  const bars: MatrixBar[] = [
    { bar: "fits", ok: broken.length === 0, detail: broken.length ? broken.map((m) => `${m.id}: ${m.note}`).join("; ") : `${mutants.length} mutants built and graded` },
    {
      bar: "dead-checks",
      ok: dead.length === 0,
      detail: dead.length ? `no mutant fails ${dead.join(", ")}` : `each of ${checks.filter((c) => c.mandatory).length} mandatory checks kills a mutant`,
    },
    { bar: "survivors", ok: survivors.length === 0, detail: survivors.length ? `scored 100: ${survivors.map((m) => m.id).join(", ")}` : "every mutant killed or lowered" },
  ];
  return { task, checks, mutants, bars, collateralOnly, ok: bars.every((b) => b.ok) };
}
