/** Splits one line on semicolons outside quotes; a quoted field may hold semicolons and doubled quotes. */
function splitLine(line: string): string[] {
  const cells: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ";") {
      cells.push(field);
      field = "";
    } else field += ch;
  }
  cells.push(field);
  return cells;
}

/**
 * Reads a PlaceMint export: semicolon-separated, a byte order mark before the header, one record
 * per line, quoted fields holding semicolons. Lines that do not have as many fields as the header
 * are skipped with a warning.
 */
export function readExport(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l !== "");
  if (!lines.length) return [];
  const header = splitLine(lines[0]);
  const records: Record<string, string>[] = [];
  for (const line of lines.slice(1)) {
    const cells = splitLine(line);
    if (cells.length !== header.length) {
      console.error(`warning: skipping malformed line: ${line.slice(0, 60)}`);
      continue;
    }
    records.push(Object.fromEntries(header.map((h, i) => [h, cells[i]])));
  }
  return records;
}

/** One CSV field for the fee book: a value with a comma, a quote or a line break is quoted, its quotes doubled. */
export function bookField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
