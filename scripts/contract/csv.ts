/**
 * @module csv
 * A strict RFC 4180 reader, written apart from the simulator's CSV writer so
 * a client's reading of a file checks the writer rather than mirroring it.
 * Rows end with the line ending the caller expects (the last row too); a
 * field is quoted or plain; inside quotes `""` is one quote and the delimiter,
 * CR and LF are data; a plain field may hold no quote, CR or LF. Anything
 * else is an error naming where it is. A byte order mark is data: strip it
 * first when the file is documented to have one.
 */

/** A file that is not well-formed CSV. */
export class CsvError extends Error {
  constructor(message: string, offset: number) {
    super(`${message} at character ${offset}`);
    this.name = "CsvError";
  }
}

/** Reads a whole file into rows of fields. */
export function parseCsv(text: string, opts: { delimiter: string; lineEnding: "\r\n" | "\n" }): string[][] {
  const { delimiter, lineEnding } = opts;
  if (delimiter.length !== 1 || /["\r\n]/.test(delimiter)) throw new Error(`unusable delimiter ${JSON.stringify(delimiter)}`);
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  if (text === "") return rows;
  for (;;) {
    let field = "";
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new CsvError("unterminated quoted field", i);
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== delimiter && text[i] !== "\r" && text[i] !== "\n") {
        if (text[i] === '"') throw new CsvError("a double quote inside an unquoted field", i);
        field += text[i];
        i += 1;
      }
    }
    row.push(field);
    if (i >= text.length) throw new CsvError(`the last row does not end with ${JSON.stringify(lineEnding)}`, i);
    if (text[i] === delimiter) {
      i += 1;
      continue;
    }
    if (!text.startsWith(lineEnding, i)) throw new CsvError(`expected ${JSON.stringify(delimiter)} or ${JSON.stringify(lineEnding)}, found ${JSON.stringify(text.slice(i, i + 2))}`, i);
    i += lineEnding.length;
    rows.push(row);
    row = [];
    if (i >= text.length) return rows;
  }
}
