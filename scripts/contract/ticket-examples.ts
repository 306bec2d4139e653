/**
 * @module ticket-examples
 * The examples of output rows in a ticket, and whether each reads in its
 * output's declared format and meets its schema.
 *
 * A fenced block whose info string is `json`, `jsonl` or `csv` shows an
 * output's rows when its info string names the output (```` ```jsonl changes.jsonl ````)
 * or, without a name, when the paragraph right before the block mentions a
 * declared output: the last one it mentions is the block's. Other blocks (a
 * webhook body, an input file) are not output examples. Fences may be
 * indented (inside a list item).
 *
 * A JSON example may show the whole array or a single row of it; a JSON Lines
 * example is one row per line; a CSV example starts with the declared header.
 */
import { z } from "zod";
import type { OutputContract, Outputs } from "../../declarations/schema/output-contract.ts";
import { checkSchema, parseFormat } from "../harness/output-format.ts";

const EXAMPLE_LANGS = new Set(["json", "jsonl", "csv"]);

/** One fenced block that shows an output's rows. */
export interface TicketExample {
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's language: json, jsonl or csv. */
  lang: string;
  /** The output it shows. */
  file: string;
  text: string;
}

/** Where a declared output's name is last mentioned in a text, or -1. */
function lastMention(text: string, file: string): number {
  const re = new RegExp(`(?<![A-Za-z0-9_.-])${file.replace(/[.]/g, "\\.")}(?![A-Za-z0-9_-])`, "g");
  let at = -1;
  for (const m of text.matchAll(re)) at = m.index;
  return at;
}

/** The output examples of a ticket, tied to the outputs they show. Throws when an info string names a file that is not an output. */
export function ticketExamples(markdown: string, outputs: Outputs): TicketExample[] {
  const lines = markdown.split("\n");
  const examples: TicketExample[] = [];
  // The paragraph being read, and the last one finished (a blank line may stand before a fence).
  let paragraph: string[] = [];
  let finished: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([^\s`]*)\s*(\S*)\s*$/.exec(lines[i]);
    if (!open) {
      if (lines[i].trim() !== "") paragraph.push(lines[i]);
      else if (paragraph.length) [finished, paragraph] = [paragraph, []];
      continue;
    }
    const [, indent, fence, lang, named] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !new RegExp(`^\\s*${fence}\\s*$`).test(lines[j]); j++) body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    if (EXAMPLE_LANGS.has(lang)) {
      const before = (paragraph.length ? paragraph : finished).join("\n");
      let file: string | undefined;
      if (named) {
        if (!(named in outputs)) throw new Error(`line ${i + 1}: the block names ${named}, which is not an output of the task`);
        file = named;
      } else {
        file = Object.keys(outputs)
          .map((f) => [f, lastMention(before, f)] as const)
          .filter(([, at]) => at >= 0)
          .sort((a, b) => b[1] - a[1])[0]?.[0];
      }
      if (file) examples.push({ line: i + 1, lang, file, text: body.join("\n") });
    }
    paragraph = [];
    finished = [];
    i = j;
  }
  return examples;
}

/** Why an example does not read as its output's rows, or null when it does. */
export function exampleProblem(example: TicketExample, contract: OutputContract): string | null {
  if (example.lang !== contract.format) return `a \`\`\`${example.lang} block shows ${example.file}, which is declared ${contract.format}`;
  // A JSON example of a file of rows may show one row of the array.
  const oneRow = contract.format === "json" && "rows" in contract && /^\s*\{/.test(example.text);
  const parsed = parseFormat(oneRow ? { format: "json", document: z.unknown() } : contract, example.text);
  if (!parsed.ok) return `it does not read as ${contract.format}: ${parsed.error}`;
  return checkSchema(contract, oneRow ? [parsed.value] : parsed.value);
}
