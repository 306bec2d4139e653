import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONDUCT_BASES } from "../../evidence/conduct.ts";
import { CheckRecorder } from "../../evidence/recorder.ts";
import type { CheckBasis, GoldManifest } from "../../evidence/verdict.ts";
import { TASKS } from "../../declarations/tasks/index.ts";
import { taskDir } from "../../scripts/harness/workspace.ts";

/** Whitespace collapsed, nothing else touched: a quote must be the ticket's own words, Markdown included. */
const normalise = (s: string) => s.replace(/\s+/g, " ").trim();

/** What is wrong with the bases of a task's checks against its ticket; empty when every basis holds. */
function basisProblems(checks: { name: string; mandatory: boolean; basis?: CheckBasis }[], conduct: Record<string, string | undefined>, ticket: string): string[] {
  const text = normalise(ticket);
  const problems: string[] = [];
  const quoted = (where: string, quote: string) => {
    if (!text.includes(normalise(quote))) problems.push(`${where}: "${quote}" is not in PROBLEM.md`);
  };
  for (const c of checks) {
    const b = c.basis as Record<string, unknown> | undefined;
    const kinds = Object.keys(b ?? {});
    if (!b || kinds.length !== 1 || !["ticket", "vendor"].includes(kinds[0]) || typeof b[kinds[0]] !== "string" || !(b[kinds[0]] as string).trim()) {
      problems.push(`${c.name}: no basis ({ ticket } or { vendor })`);
      continue;
    }
    if (c.mandatory && kinds[0] !== "ticket") problems.push(`${c.name}: mandatory, but its basis is not a ticket sentence`);
    if (kinds[0] === "ticket") quoted(c.name, b.ticket as string);
  }
  for (const [name, quote] of Object.entries(conduct)) if (quote !== undefined) quoted(`conduct ${name}`, quote);
  return problems;
}

const entries = Object.values(TASKS).map((e) => [e.task.id, e] as const);
const ticketOf = (id: string) => readFileSync(join(taskDir(id), "PROBLEM.md"), "utf8");

describe("check bases", () => {
  it.each(entries)("%s: every check gold records has a basis, mandatory ones quote the ticket verbatim", (id, e) => {
    const gold = e.gold as GoldManifest;
    expect(gold.checks.length).toBeGreaterThan(0);
    expect(basisProblems(gold.checks, e.task.conduct, ticketOf(id))).toEqual([]);
  });

  it.each(entries)("%s: a ticket that loses a quoted sentence fails the check", (id, e) => {
    const gold = e.gold as GoldManifest;
    const mandatory = gold.checks.find((c) => c.mandatory && c.basis && "ticket" in c.basis);
    expect(mandatory, "a mandatory check quoting the ticket").toBeDefined();
    const quote = (mandatory!.basis as { ticket: string }).ticket;
    // Edit the quote out of the ticket, whichever line breaks it spans.
    const edited = ticketOf(id).replace(
      new RegExp(
        quote
          .split(/\s+/)
          .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join("\\s+"),
        "g",
      ),
      "(removed)",
    );
    expect(edited).not.toBe(ticketOf(id));
    expect(basisProblems(gold.checks, e.task.conduct, edited)).toContain(`${mandatory!.name}: "${quote}" is not in PROBLEM.md`);
  });

  it("names a ticket sentence for every hard gate a task's gold records", () => {
    const missing = entries.flatMap(([id, e]) =>
      e.gold!.checks.filter((c) => c.name in CONDUCT_BASES && c.mandatory && !e.task.conduct[c.name as keyof typeof CONDUCT_BASES]).map((c) => `${id} ${c.name}`),
    );
    expect(missing).toEqual([]);
  });

  it("flags a mandatory check resting on a vendor behaviour, and a check without a basis", () => {
    const problems = basisProblems(
      [
        { name: "gate", mandatory: true, basis: { vendor: "the vendor refuses it" } },
        { name: "bare", mandatory: false },
      ],
      {},
      "Credentials go in headers.",
    );
    expect(problems).toEqual(["gate: mandatory, but its basis is not a ticket sentence", "bare: no basis ({ ticket } or { vendor })"]);
  });

  it("refuses, in the recorder, a check without a basis or a mandatory one without a ticket sentence", () => {
    const c = new CheckRecorder();
    expect(() => c.check("x", true, { basis: { ticket: " " } })).toThrow(/basis/);
    expect(() => c.check("x", true, { basis: { vendor: "answers 410" }, mandatory: true })).toThrow(/ticket/);
    expect(() => c.check("x", true, { basis: { ticket: "a", vendor: "b" } as unknown as CheckBasis })).toThrow(/basis/);
    expect(() => c.check("x", true, {} as never)).toThrow(/basis/);
    c.check("x", true, { basis: { ticket: "Credentials go in headers." }, mandatory: true });
    expect(c.checks[0].basis).toEqual({ ticket: "Credentials go in headers." });
  });
});
