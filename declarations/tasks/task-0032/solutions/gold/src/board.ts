import { readFileSync } from "node:fs";

/** One row of the desk board export. */
export interface BoardRow {
  board_ref: string;
  desk: string;
  placement_ref: string;
  client: string;
  board_status: string;
}

/** Splits CSV text into records (RFC 4180: quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
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
    else if (ch === ",") {
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
  return records.filter((r) => r.length > 1 || r[0] !== "");
}

export function readBoard(path: string): BoardRow[] {
  const [header, ...rows] = parseCsv(readFileSync(path, "utf8"));
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${path}: no ${name} column`);
    return i;
  };
  const cols = { board_ref: at("board_ref"), desk: at("desk"), placement_ref: at("placement_ref"), client: at("client"), board_status: at("board_status") };
  return rows.map((r) => ({
    board_ref: r[cols.board_ref],
    desk: r[cols.desk],
    placement_ref: r[cols.placement_ref],
    client: r[cols.client],
    board_status: r[cols.board_status],
  }));
}

/** The PlaceMint id a hand-typed reference names: the same placement number, whatever the case, separator, spaces and zeros. */
export function placementOf(ref: string): string | null {
  const m = /^\s*(?:plc)?[\s_-]*(\d+)\s*$/i.exec(ref);
  if (!m) return null;
  const n = m[1].replace(/^0+(?=\d)/, "");
  return `plc_${n.padStart(6, "0")}`;
}
