/**
 * @module csv
 * Writes CSV the RFC 4180 way: a field holding the delimiter, a double quote,
 * CR or LF is quoted, and its quotes are doubled; every other field is written
 * as is. Values are the wire values of the JSON API, written as text.
 */
import type { CsvFormat } from "../../../mechanics/exports/define.ts";

/** The text a wire value is written as: null as an empty field, objects as JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** One field, quoted when it must be. */
export function csvField(text: string, delimiter: string): string {
  return text.includes(delimiter) || /["\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row, without its line ending. */
export function csvLine(values: unknown[], delimiter: string): string {
  return values.map((v) => csvField(cellText(v), delimiter)).join(delimiter);
}

/** A whole file: the byte order mark if declared, the header row, then the rows, each ended. */
export function csvFile(format: CsvFormat, headers: string[], lines: string[]): string {
  const body = [csvLine(headers, format.delimiter), ...lines].map((l) => l + format.lineEnding).join("");
  return (format.bom ? "\uFEFF" : "") + body;
}
