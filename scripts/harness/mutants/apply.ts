/**
 * @module apply
 * Builds a mutant's connector: gold's tree (the starter with gold overlaid)
 * with the mutant's patches applied. A patch whose text is not found exactly
 * as often as it says no longer fits gold: that is an error, never a silent
 * no-op that would grade gold under a mutant's name.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import type { Mutant } from "../../../declarations/tasks/shared/mutant.ts";

/** Counts non-overlapping occurrences of `find` in `text`. */
export function occurrences(text: string, find: string): number {
  let n = 0;
  for (let i = text.indexOf(find); i !== -1; i = text.indexOf(find, i + find.length)) n++;
  return n;
}

/** Applies a mutant's patches to the connector in `dir`, in place. Throws when a patch does not fit. */
export function applyMutant(dir: string, mutant: Mutant): void {
  for (const p of mutant.patches) {
    const path = join(dir, p.file);
    if (relative(dir, path).startsWith("..")) throw new Error(`mutant ${mutant.id}: ${p.file} is outside the connector`);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      throw new Error(`mutant ${mutant.id}: ${p.file} is not a file of gold`);
    }
    if ("prepend" in p) {
      writeFileSync(path, `${p.prepend}\n${text}`);
      continue;
    }
    const want = p.count ?? 1;
    const found = occurrences(text, p.find);
    if (found !== want) throw new Error(`mutant ${mutant.id}: ${p.file} holds its text ${found} times, not ${want} (the patch no longer fits gold)`);
    writeFileSync(path, text.split(p.find).join(p.replace));
  }
}

/** Every file of a connector tree, path (relative, `/`-separated) -> text; node_modules and output skipped. */
export function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === "node_modules" || e.name === "output" || e.name === ".git") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) files.set(relative(dir, p).split("\\").join("/"), readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return files;
}
