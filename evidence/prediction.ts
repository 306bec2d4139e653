/**
 * @module prediction
 * A patch submitted for grading, in the SWE-bench way: which task, which
 * model (the label it is published under) and the patch, a `git diff`
 * against the task's starter. One schema for both ways in: a line of a
 * predictions file (`wirebench grade-all --predictions FILE`) and the body of
 * `POST /v1/submissions`. The patch is untrusted text: it is capped here and
 * applied only by the harness, to a pristine copy of the starter.
 */
import { z } from "zod";

/** Largest patch accepted (bytes of UTF-8), the cap the harness puts on an agent's patch. */
export const PREDICTION_PATCH_MAX_BYTES = 8 * 1024 ** 2;

/** A model label: what the published row is named; letters, digits and `._:/@+-`, no spaces. */
export const MODEL_LABEL = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;

/** Whether `text` is at most `maxBytes` in UTF-8 (a UTF-16 unit takes at most 3 bytes, so short text is not encoded). */
export function fitsBytes(text: string, maxBytes: number): boolean {
  return text.length * 3 <= maxBytes || new TextEncoder().encode(text).length <= maxBytes;
}

export const Prediction = z.strictObject({
  /** The task id (`task-0001`). */
  task: z.string().regex(/^task-\d{4}$/, "a task id is task-NNNN"),
  /** The model (or agent) the patch came from. */
  model: z.string().regex(MODEL_LABEL, "a model label is 1-128 of letters, digits and ._:/@+- (no spaces), starting with a letter or digit"),
  /** A `git diff` (binary diffs allowed) against the task's starter repository; empty means the starter as is. */
  patch: z.string().refine((p) => fitsBytes(p, PREDICTION_PATCH_MAX_BYTES), `a patch is at most ${PREDICTION_PATCH_MAX_BYTES} bytes`),
});

export type Prediction = z.infer<typeof Prediction>;
