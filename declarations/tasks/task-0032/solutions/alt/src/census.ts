import { type BoardRow, placementOf } from "./board.ts";

export interface Placement {
  id: string;
  status: string;
  deleted: boolean;
}

export type Finding = "duplicate_on_board" | "not_in_book" | "deleted_in_book" | "not_booked" | "matched" | "not_on_board";

export interface CensusRow {
  board_ref: string | null;
  placement_id: string | null;
  finding: Finding;
  book_status: string | null;
}

const booked = (p: Placement) => !p.deleted && (p.status === "confirmed" || p.status === "active");

/**
 * The census (PROBLEM.md, "The rule"). `book` is every placement PlaceMint lists, deleted ones
 * included: PlaceMint keeps a deleted placement in its lists with `deleted: true`, so a
 * placement it does not list at all is one it never had.
 */
export function census(board: BoardRow[], book: Placement[]): CensusRow[] {
  const byId = new Map(book.map((p) => [p.id, p]));
  const named = new Set<string>();
  const rows: CensusRow[] = [];
  for (const row of [...board].sort((a, b) => (a.board_ref < b.board_ref ? -1 : a.board_ref > b.board_ref ? 1 : 0))) {
    const id = placementOf(row.placement_ref);
    const p = id ? byId.get(id) : undefined;
    let finding: Finding;
    if (id && named.has(id)) finding = "duplicate_on_board";
    else if (!p) finding = "not_in_book";
    else if (p.deleted) finding = "deleted_in_book";
    else if (!booked(p)) finding = "not_booked";
    else finding = "matched";
    if (id) named.add(id);
    rows.push({ board_ref: row.board_ref, placement_id: id, finding, book_status: p?.status ?? null });
  }
  const off = book
    .filter((p) => booked(p) && !named.has(p.id))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((p): CensusRow => ({ board_ref: null, placement_id: p.id, finding: "not_on_board", book_status: p.status }));
  return [...rows, ...off];
}
