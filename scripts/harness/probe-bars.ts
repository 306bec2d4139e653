import type { Verdict } from "../../evidence/verdict.ts";
import { differingPaths, structural } from "./structural.ts";

/** Outcome of one bar of the validation rig. */
export interface BarResult {
  bar: "gold" | "empty" | "stub" | "naive" | "alt" | "flake";
  ok: boolean;
  detail: string;
}

/**
 * The probe bars (docs/tasks.md) over one task's probe verdicts. `alt` is the task's
 * `solutions/alt/` when it has one (another defensible approach the ticket
 * allows): it must be solved; its score may fall short of 100 where it
 * legitimately misses soft checks.
 */
export function checkBars(v: { empty: Verdict; stub: Verdict; naive: Verdict; gold: Verdict[]; alt?: Verdict }): BarResult[] {
  const g = v.gold[0];
  const flake = v.gold
    .slice(1)
    .map((x) => differingPaths(structural(g), structural(x)))
    .find((d) => d.length);
  return [
    { bar: "gold", ok: g.score === 100 && g.solved && !g.error, detail: `score ${g.score}${g.solved ? ", solved" : ", not solved"}${g.error ? `, ${g.error.class}` : ""}` },
    { bar: "empty", ok: v.empty.score === 0 && !v.empty.solved, detail: `score ${v.empty.score}` },
    { bar: "stub", ok: v.stub.score === 0 && !v.stub.solved, detail: `score ${v.stub.score}` },
    { bar: "naive", ok: v.naive.score <= 75 && !v.naive.solved, detail: `score ${v.naive.score}${v.naive.solved ? ", solved" : ""}` },
    ...(v.alt
      ? [
          {
            bar: "alt" as const,
            ok: v.alt.solved && !v.alt.error,
            detail: `score ${v.alt.score}${v.alt.solved ? ", solved" : `, not solved (${mandatoryFailures(v.alt).join(", ") || "no mandatory failure recorded"})`}${v.alt.error ? `, ${v.alt.error.class}` : ""}`,
          },
        ]
      : []),
    { bar: "flake", ok: !flake, detail: flake ? `gold verdicts differ at ${flake.join(", ")}` : `${v.gold.length} gold verdicts identical` },
  ];
}

/** Names of the mandatory checks a verdict failed. */
function mandatoryFailures(v: Verdict): string[] {
  return [...v.checks.l1, ...v.checks.l2, ...v.checks.l3].filter((c) => c.mandatory && !c.ok).map((c) => c.name);
}
