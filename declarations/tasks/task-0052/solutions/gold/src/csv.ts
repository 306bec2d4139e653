/**
 * Reads CSV the RFC 4180 way, for either delimiter: a leading byte order mark is dropped, rows
 * end in CRLF or LF, and a quoted field may hold the delimiter, doubled quotes and line breaks.
 * Returns records keyed by the header row.
 */
export function parseCsv(text: string, delimiter: "," | ";"): Record<string, string>[] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  const src = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      record.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && src[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || record.length) {
    record.push(field);
    records.push(record);
  }
  const [header, ...rows] = records.filter((r) => r.length > 1 || r[0] !== "");
  if (!header) return [];
  return rows.map((r) => {
    if (r.length !== header.length) throw new Error(`a CSV record has ${r.length} fields, the header ${header.length}`);
    return Object.fromEntries(header.map((h, i) => [h, r[i]]));
  });
}
