/**
 * Reads a PlaceMint export: semicolon-separated, a byte order mark before the header, one record
 * per line. Lines that do not have as many fields as the header are skipped with a warning.
 */
export function readExport(text: string): Record<string, string>[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l !== "");
  if (!lines.length) return [];
  const header = lines[0].split(";");
  const records: Record<string, string>[] = [];
  for (const line of lines.slice(1)) {
    const cells = line.split(";");
    if (cells.length !== header.length) {
      console.error(`warning: skipping malformed line: ${line.slice(0, 60)}`);
      continue;
    }
    records.push(Object.fromEntries(header.map((h, i) => [h, cells[i]])));
  }
  return records;
}

/** One CSV field for the fee book: a value with a comma is put in quotes. */
export function bookField(value: string): string {
  return value.includes(",") ? `"${value}"` : value;
}
