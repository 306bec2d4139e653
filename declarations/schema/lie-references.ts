import type { z } from "zod";
import { lieProblem, type VendorForLies } from "../../mechanics/lies/index.ts";

/** Rejects lies the engine could not make true in responses, and duplicate ids. */
export function checkLies(v: VendorForLies & { lies: { id: string; kind: string; resource?: string }[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  v.lies.forEach((lie, i) => {
    if (seen.has(lie.id)) ctx.addIssue({ code: "custom", path: ["lies", i, "id"], message: `duplicate lie id "${lie.id}"` });
    seen.add(lie.id);
    const problem = lieProblem(v, lie);
    if (problem) ctx.addIssue({ code: "custom", path: ["lies", i], message: `lie "${lie.id}" (${lie.kind}) cannot be told: ${problem}` });
  });
}
