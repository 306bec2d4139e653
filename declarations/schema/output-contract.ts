/**
 * @module output-contract
 * What a task declares about each file its connector writes under OUTPUT_DIR:
 * the file's format and the zod schema its rows (or, for a one-document JSON
 * file, the document) must meet. The harness reads every output by its
 * contract; the ticket's examples are checked against the same contract.
 */
import { z } from "zod";

/** Formats an output may be written in; a file's name ends in its format (`.json`, `.jsonl`, `.csv`). */
export const OUTPUT_FORMATS = ["json", "jsonl", "csv"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

const zodSchema = z.custom<z.ZodType>((v) => v instanceof z.ZodType, { message: "must be a zod schema" });

export const OutputContractSchema = z.union([
  /** One JSON array; each element is a row. */
  z.strictObject({ format: z.literal("json"), rows: zodSchema }),
  /** One JSON document (an object report, not rows). */
  z.strictObject({ format: z.literal("json"), document: zodSchema }),
  /** JSON Lines: one JSON value per line, each a row. */
  z.strictObject({ format: z.literal("jsonl"), rows: zodSchema }),
  /** CSV (RFC 4180) whose first record is exactly `header`; each later record is a row of strings keyed by the header. */
  z.strictObject({ format: z.literal("csv"), header: z.array(z.string().min(1)).min(1), rows: zodSchema }),
]);
export type OutputContract = z.infer<typeof OutputContractSchema>;

const OUTPUT_NAME = /^[a-z0-9_-][a-z0-9_.-]*\.(json|jsonl|csv)$/;

/** File name -> contract; at least one file, and each name ends in its format. */
export const OutputsSchema = z.record(z.string().regex(OUTPUT_NAME, "an output's name is lower-case and ends in .json, .jsonl or .csv"), OutputContractSchema).superRefine((outputs, ctx) => {
  if (!Object.keys(outputs).length) ctx.addIssue({ code: "custom", message: "a task writes at least one output" });
  for (const [name, c] of Object.entries(outputs)) {
    if (!name.endsWith(`.${c.format}`)) ctx.addIssue({ code: "custom", path: [name], message: `${name} is declared ${c.format}; its name must end in .${c.format}` });
    if (c.format === "csv" && new Set(c.header).size !== c.header.length) ctx.addIssue({ code: "custom", path: [name, "header"], message: "CSV header names repeat" });
  }
});
export type Outputs = z.infer<typeof OutputsSchema>;

/** A JSON file holding one array of rows. */
export const jsonRows = (rows: z.ZodType): OutputContract => ({ format: "json", rows });
/** A JSON file holding one document. */
export const jsonDocument = (document: z.ZodType): OutputContract => ({ format: "json", document });
/** A JSON Lines file: one row per line. */
export const jsonLines = (rows: z.ZodType): OutputContract => ({ format: "jsonl", rows });
/** A CSV file with this header; its rows are records of strings keyed by the header. */
export const csvRows = (header: string[], rows: z.ZodType): OutputContract => ({ format: "csv", header, rows });

/** How a contract's format reads in a message: `JSON (one array of rows)`. */
export function describeFormat(c: OutputContract): string {
  if (c.format === "csv") return `CSV with the header ${c.header.join(",")}`;
  if (c.format === "jsonl") return "JSON Lines (one JSON value per line)";
  return "rows" in c ? "JSON (one array of rows)" : "JSON (one document)";
}
