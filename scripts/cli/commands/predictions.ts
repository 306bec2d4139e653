/**
 * @module predictions
 * Reading what `wirebench grade-all --predictions` is given: a JSON Lines file
 * of `{task, model, patch}` (the `Prediction` schema), or a folder of
 * `<task>.diff` files of one model. Each line or file stands alone: a
 * malformed one is reported by its line number (or file name) and the others
 * are still read. A (task, model) pair given twice is refused on every line
 * that gives it, since either could be the one meant: none of them is graded.
 * The folder is read as an untrusted one: regular files only, opened without
 * following a link, at most the patch cap each.
 */
import { closeSync, constants, createReadStream, fstatSync, openSync, readdirSync, readSync } from "node:fs";
import { basename } from "node:path";
import { createInterface } from "node:readline";
import { MODEL_LABEL, PREDICTION_PATCH_MAX_BYTES, Prediction } from "../../../evidence/prediction.ts";
import { findTask } from "../../../declarations/tasks/index.ts";
import { describeZodError } from "../../../workers/control/schemas.ts";
import { UsageError } from "../errors.ts";

/** A prediction and where it was read (`line 3`, `task-0001.diff`). */
export interface PredictionItem {
  source: string;
  prediction: Prediction;
}

/** A line or file that is not graded, and why. */
export interface PredictionProblem {
  source: string;
  message: string;
}

export interface ReadPredictions {
  items: PredictionItem[];
  problems: PredictionProblem[];
}

/** Checks what the schema cannot: the task exists and can be scored. */
function taskProblem(p: Prediction): string | null {
  const entry = findTask(p.task);
  if (!entry) return `unknown task "${p.task}"`;
  if (!entry.gold) return `task ${p.task} has no gold manifest yet, so it cannot be scored`;
  return null;
}

/** A model label as a bundle's name has it: labels that differ only in other characters name the same bundle. */
export const modelSlug = (model: string) => model.replace(/[^A-Za-z0-9._-]+/g, "_");

/** Refuses every item of a (task, model) pair given more than once (models compared as their bundles name them). */
function refuseDuplicates(read: ReadPredictions): ReadPredictions {
  const byPair = new Map<string, PredictionItem[]>();
  for (const item of read.items) {
    const key = `${item.prediction.task}\0${modelSlug(item.prediction.model)}`;
    byPair.set(key, [...(byPair.get(key) ?? []), item]);
  }
  const items: PredictionItem[] = [];
  const problems = [...read.problems];
  for (const group of byPair.values()) {
    if (group.length === 1) items.push(group[0]);
    else
      for (const item of group)
        problems.push({
          source: item.source,
          message: `${item.prediction.task} for model ${item.prediction.model} is given ${group.length} times (${group.map((g) => g.source).join(", ")}); a (task, model) pair may appear once, so none of them is graded`,
        });
  }
  return { items, problems };
}

/** The predictions of a JSON Lines file; blank lines are skipped. */
export async function readPredictionsFile(file: string): Promise<ReadPredictions> {
  const items: PredictionItem[] = [];
  const problems: PredictionProblem[] = [];
  const lines = createInterface({ input: createReadStream(file, { encoding: "utf8" }), crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    const source = `line ${n}`;
    if (line.trim() === "") continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      problems.push({ source, message: `not JSON: ${(err as Error).message}` });
      continue;
    }
    const parsed = Prediction.safeParse(raw);
    if (!parsed.success) {
      problems.push({ source, message: describeZodError(parsed.error).replace(/^body: /, "") });
      continue;
    }
    const bad = taskProblem(parsed.data);
    if (bad) problems.push({ source, message: bad });
    else items.push({ source, prediction: parsed.data });
  }
  return refuseDuplicates({ items, problems });
}

/** A regular file read without following a link, up to `limit` bytes; or why not. */
function readRegular(path: string, limit: number): Buffer | string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ELOOP" ? "a symbolic link, not a regular file" : `cannot be opened (${(err as NodeJS.ErrnoException).code})`;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return "not a regular file";
    if (st.size > limit) return `${st.size} bytes, over the ${limit}-byte cap of a patch`;
    const buf = Buffer.alloc(st.size);
    let got = 0;
    for (let r = 1; r > 0 && got < buf.length; got += r) r = readSync(fd, buf, got, buf.length - got, null);
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** The predictions of a folder of `<task>.diff` files, all of model `model` (default: the folder's name). */
export function readPredictionsFolder(dir: string, model?: string): ReadPredictions {
  const label = model ?? basename(dir);
  if (!MODEL_LABEL.test(label)) throw new UsageError(`the model label "${label}" is not valid (letters, digits and ._:/@+-, no spaces): pass --model NAME`);
  const items: PredictionItem[] = [];
  const problems: PredictionProblem[] = [];
  for (const name of readdirSync(dir).sort()) {
    const m = /^(task-\d{4})\.diff$/.exec(name);
    if (!m) {
      problems.push({ source: name, message: "not a <task>.diff file (task-NNNN.diff)" });
      continue;
    }
    const bytes = readRegular(`${dir}/${name}`, PREDICTION_PATCH_MAX_BYTES);
    if (typeof bytes === "string") {
      problems.push({ source: name, message: bytes });
      continue;
    }
    let patch: string;
    try {
      patch = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      problems.push({ source: name, message: "not UTF-8 text (a binary change belongs in a git binary diff, which is text)" });
      continue;
    }
    const parsed = Prediction.safeParse({ task: m[1], model: label, patch });
    if (!parsed.success) {
      problems.push({ source: name, message: describeZodError(parsed.error) });
      continue;
    }
    const bad = taskProblem(parsed.data);
    if (bad) problems.push({ source: name, message: bad });
    else items.push({ source: name, prediction: parsed.data });
  }
  return { items, problems };
}
