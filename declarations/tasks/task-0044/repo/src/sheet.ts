import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One line of the coordinators' sheet, as typed. */
export interface SheetLine {
  /** 1 for the first line under the header. */
  line: number;
  gig_id: string;
  crewcall_no: string;
  first_name: string;
  last_name: string;
  email: string;
  mobile: string;
  home_zone: string;
  role: string;
}

/** Splits CSV text into rows of fields (double-quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.some((f) => f !== ""));
}

/** The sheet in `repo/input/topup.csv`. */
export function readSheet(): SheetLine[] {
  const [header, ...rows] = parseCsv(readFileSync(join(import.meta.dirname, "..", "input", "topup.csv"), "utf8"));
  return rows.map((fields, i) => {
    const get = (name: string) => fields[header.indexOf(name)] ?? "";
    return {
      line: i + 1,
      gig_id: get("gig_id"),
      crewcall_no: get("crewcall_no"),
      first_name: get("first_name"),
      last_name: get("last_name"),
      email: get("email"),
      mobile: get("mobile"),
      home_zone: get("home_zone"),
      role: get("role"),
    };
  });
}
