import type { Check, CheckBasis, CheckLevel, CheckValue } from "./verdict.ts";

/** How a check is valued; defaults follow the conventions in README. */
export interface CheckOptions {
  /** The ticket sentence (verbatim) or vendor behaviour the check enforces; a mandatory check names a ticket sentence. */
  basis: CheckBasis;
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

  check(name: string, ok: boolean, opts: CheckOptions): boolean {
    const pass = opts.pass ?? 1;
    const fail = opts.fail ?? 0;
    if (!VALUES.has(pass) || !VALUES.has(fail)) throw new Error(`check ${name}: values must be in {-1, 0, 1, 2}`);
    const mandatory = opts.mandatory ?? false;
    const basis = checkedBasis(name, opts.basis, mandatory);
    this.checks.push({ name, ok, detail: opts.detail ?? "", pass, fail, mandatory, level: opts.level ?? "l1", value: ok ? pass : fail, basis });
    return ok;
  }
}

/**
 * A basis as a check carries it: exactly one of `ticket` or `vendor`, one
 * non-empty line; a mandatory check's is a ticket sentence.
 */
export function checkedBasis(name: string, basis: CheckBasis, mandatory: boolean): CheckBasis {
  const kinds = Object.keys(basis ?? {}).filter((k) => (basis as Record<string, unknown>)[k] !== undefined);
  const text = kinds.length === 1 ? (basis as Record<string, unknown>)[kinds[0]] : undefined;
  if (kinds.length !== 1 || !["ticket", "vendor"].includes(kinds[0]) || typeof text !== "string" || !text.trim() || text.includes("\n")) {
    throw new Error(`check ${name}: basis must be { ticket } or { vendor } holding one non-empty line`);
  }
  if (mandatory && kinds[0] !== "ticket") throw new Error(`check ${name}: a mandatory check's basis must quote the ticket`);
  return kinds[0] === "ticket" ? { ticket: text } : { vendor: text };
}
