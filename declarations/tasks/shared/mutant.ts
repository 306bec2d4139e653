/**
 * @module mutant
 * A mutant of a task's gold connector: one realistic integration mistake,
 * written as text patches on gold's files. `wirebench mutants` grades each
 * one; a mandatory check that no mutant fails is dead, and a mutant that
 * scores 100 is a mistake no check sees.
 *
 * A task lists its own mutants in `mutants.ts` beside `task.ts` (default
 * export, built with `defineMutants`); mistakes common to many tasks come from
 * the shared generators in `scripts/harness/mutants/`.
 */
import { z } from "zod";

const FindPatchSchema = z
  .object({
    /** Path of a file of gold's tree (starter with gold overlaid), relative to the connector's root. */
    file: z.string().min(1),
    /** Text that must occur in the file exactly `count` times. */
    find: z.string().min(1),
    replace: z.string(),
    /** How many times `find` occurs (all are replaced); default 1. A patch that finds another count no longer fits gold. */
    count: z.number().int().positive().optional(),
  })
  .strict();

/** Code put at the top of a file (after its imports run, before its own statements). */
const PrependPatchSchema = z.object({ file: z.string().min(1), prepend: z.string().min(1) }).strict();

export const MutantPatchSchema = z.union([FindPatchSchema, PrependPatchSchema]);

export const MutantSchema = z
  .object({
    /** Short kebab-case name, unique in the task. */
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/),
    /** The integration mistake, in one sentence a reviewer recognises. */
    mistake: z.string().min(10),
    patches: z.array(MutantPatchSchema).min(1),
    /** Names of the checks the mistake is aimed at, when it also breaks others (its other kills are collateral). */
    aimsAt: z.array(z.string().min(1)).optional(),
  })
  .strict();

export type MutantPatch = z.infer<typeof MutantPatchSchema>;
export type Mutant = z.infer<typeof MutantSchema>;

/** A task's mutants file. `equivalent` names shared-generator mutants that change nothing gold's behaviour depends on in this task, with the reason. */
export const TaskMutantsSchema = z
  .object({
    mutants: z.array(MutantSchema),
    equivalent: z.record(z.string(), z.string().min(10)).optional(),
  })
  .strict();
export type TaskMutants = z.infer<typeof TaskMutantsSchema>;

/** Declares a task's mutants (checked when loaded). */
export function defineMutants(m: TaskMutants): TaskMutants {
  return TaskMutantsSchema.parse(m);
}
