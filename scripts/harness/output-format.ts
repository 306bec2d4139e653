/**
 * @module output-format
 * Reading an output's text by its declared contract: JSON (one array of rows,
 * or one document), JSON Lines, or CSV (through csv-parse, with the declared
 * header), then each row (or the document) against the contract's zod schema.
 * A file that does not read gets one message naming the file, the format
 * expected and the parser's or the schema's own words.
 */
import { parse as parseCsv } from "csv-parse/sync";
import type { z } from "zod";
import { type OutputContract, describeFormat } from "../../declarations/schema/output-contract.ts";

export type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

const MESSAGE_MAX = 300;
const clip = (s: string) => (s.length > MESSAGE_MAX ? `${s.slice(0, MESSAGE_MAX - 3)}...` : s);

/** Every line of a JSON Lines text, the final newline allowed. */
function jsonLines(text: string): Parsed {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const rows: unknown[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    try {
      rows.push(JSON.parse(line));
    } catch (err) {
      return { ok: false, error: `line ${i + 1}: ${(err as Error).message}` };
    }
  }
  return { ok: true, value: rows };
}

/** Parses text in a contract's format, without the schema: JSON's value, JSON Lines' and CSV's rows. */
export function parseFormat(c: OutputContract, text: string): Parsed {
  if (c.format === "jsonl") return jsonLines(text);
  if (c.format === "csv") {
    let records: string[][];
    try {
      records = parseCsv(text, { bom: true, skip_empty_lines: false, relax_column_count: false });
    } catch (err) {
      return { ok: false, error: (err as Error).message };
    }
    const [head, ...body] = records;
    if (!head || head.join(",") !== c.header.join(","))
      return { ok: false, error: `the first record is ${head ? JSON.stringify(head.join(",")) : "missing"}, not the header ${JSON.stringify(c.header.join(","))}` };
    return { ok: true, value: body.map((r) => Object.fromEntries(c.header.map((h, i) => [h, r[i]]))) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const lines = jsonLines(text);
    const hint = lines.ok && (lines.value as unknown[]).length > 1 ? "; each line parses on its own, so this is JSON Lines, not one JSON value" : "";
    return { ok: false, error: `${(err as Error).message}${hint}` };
  }
  if ("rows" in c && !Array.isArray(value)) return { ok: false, error: `the file holds a JSON ${value === null ? "null" : typeof value}, not an array of rows` };
  return { ok: true, value };
}

/** The first issue of a failed zod parse, with its path. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

/** Checks parsed rows (or a document) against the contract's schema; the first failing row is named. */
export function checkSchema(c: OutputContract, value: unknown): string | null {
  if ("document" in c) {
    const r = c.document.safeParse(value);
    return r.success ? null : `the document does not match its schema: ${firstIssue(r.error)}`;
  }
  const rows = value as unknown[];
  for (const [i, row] of rows.entries()) {
    const r = c.rows.safeParse(row);
    if (!r.success) return `row ${i + 1} does not match the row schema: ${firstIssue(r.error)}`;
  }
  return null;
}

/** Reads an output's text by its contract: the value the judges see, or the one message that says why not. */
export function readByContract(name: string, c: OutputContract, text: string): Parsed {
  const parsed = parseFormat(c, text);
  if (!parsed.ok) return { ok: false, error: clip(`${name} is not ${describeFormat(c)}: ${parsed.error}`) };
  const wrong = checkSchema(c, parsed.value);
  return wrong ? { ok: false, error: clip(`${name} (${describeFormat(c)}): ${wrong}`) } : parsed;
}
