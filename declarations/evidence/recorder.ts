import type { Check, CheckLevel, CheckValue } from "./verdict.ts";

/** How a check is valued; defaults follow the conventions in README. */
export interface CheckOptions {
  pass?: CheckValue;
  fail?: CheckValue;
  mandatory?: boolean;
  level?: CheckLevel;
  detail?: string;
}

const VALUES = new Set([-1, 0, 1, 2]);

/** Collects checks; never throws on a failing check, so a judge always runs to its end. */
export class CheckRecorder {
  readonly checks: Check[] = [];

  check(name: string, ok: boolean, opts: CheckOptions = {}): boolean {
    const pass = opts.pass ?? 1;
    const fail = opts.fail ?? 0;
    if (!VALUES.has(pass) || !VALUES.has(fail)) throw new Error(`check ${name}: values must be in {-1, 0, 1, 2}`);
    this.checks.push({ name, ok, detail: opts.detail ?? "", pass, fail, mandatory: opts.mandatory ?? false, level: opts.level ?? "l1", value: ok ? pass : fail });
    return ok;
  }
}
