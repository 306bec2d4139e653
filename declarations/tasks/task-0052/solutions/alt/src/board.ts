import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The board's columns, in the ticket's order. */
export const COLUMNS = ["placement_id", "contractor_id", "client_id", "status", "currency", "hourly_bill_rate", "hours_per_week", "agency_fee_bps", "cost_center", "updated_at"] as const;
export type Row = Record<(typeof COLUMNS)[number], string>;

/** What the connector keeps between commands under OUTPUT_DIR. */
export interface BoardState {
  /** The board now, by placement id. */
  rows: Record<string, Row>;
  /** Each placement's status at the end of the last sync: what a close-out is measured against. */
  baseline: Record<string, string> | null;
  /** Placements whose current ending is closed out (their note is on PlaceMint); an extension clears it. */
  closed: string[];
  /** Ids of webhook events already applied. */
  events: string[];
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The board's state file and CSV under OUTPUT_DIR, each written whole and renamed into place. */
export class Board {
  readonly state: BoardState;
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "board-state.json");
    this.state = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as BoardState) : { rows: {}, baseline: null, closed: [], events: [] };
  }

  private write(name: string, text: string): void {
    const tmp = join(this.dir, `.${name}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(this.dir, name));
  }

  save(): void {
    this.write("board-state.json", JSON.stringify(this.state));
    const rows = Object.values(this.state.rows).sort((a, b) => (a.placement_id < b.placement_id ? -1 : 1));
    this.write("board.csv", [COLUMNS.join(","), ...rows.map((r) => COLUMNS.map((c) => csvField(r[c])).join(","))].map((l) => `${l}\n`).join(""));
  }
}

/** A board row from a placement as the JSON API or a webhook gives it (fees included). */
export function rowFromRecord(p: Record<string, unknown>): Row {
  const s = (v: unknown) => (v === null || v === undefined ? "" : String(v));
  return {
    placement_id: s(p.id),
    contractor_id: s(p.contractor_id),
    client_id: s(p.client_id),
    status: s(p.status),
    currency: s(p.currency),
    hourly_bill_rate: s(p.hourly_bill_rate),
    hours_per_week: s(p.hours_per_week),
    agency_fee_bps: s(p.agency_fee_bps),
    cost_center: s(p.cost_center),
    updated_at: s(p.updated_at),
  };
}
