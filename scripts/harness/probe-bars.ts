import type { Verdict } from "../../declarations/evidence/verdict.ts";
import { differingPaths, structural } from "./structural.ts";

/** Outcome of one bar of the validation rig. */
export interface BarResult {
  bar: "gold" | "empty" | "stub" | "naive" | "flake";
  ok: boolean;
  detail: string;
}

/** The DESIGN.md probe bars over one task's probe verdicts. */
export function checkBars(v: { empty: Verdict; stub: Verdict; naive: Verdict; gold: Verdict[] }): BarResult[] {
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
    { bar: "flake", ok: !flake, detail: flake ? `gold verdicts differ at ${flake.join(", ")}` : `${v.gold.length} gold verdicts identical` },
  ];
}
