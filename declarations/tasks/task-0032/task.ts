import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import board from "./board-key.json" with { type: "json" };

const ROLE = "book";
const CENSUS = "census.json";
const BOOKED = new Set(["confirmed", "active"]);

/**
 * Faults of a Friday afternoon (declared in declarations/vendors/placemint.ts): the third page
 * of placements answers 502 once, the quota closes early for a burst, and every token is
 * revoked after a few requests.
 */
export const FRIDAY_FAULTS = ["pm-placements-502-page-3", "pm-burst-429", "pm-tokens-revoked"];

const Finding = z.enum(["duplicate_on_board", "not_in_book", "deleted_in_book", "not_booked", "matched", "not_on_board"]);
const CensusRow = z.looseObject({
  board_ref: z.string().nullable(),
  placement_id: z.string().nullable(),
  finding: Finding,
  book_status: z.string().nullable(),
});
type CensusRow = z.infer<typeof CensusRow>;

/** One row of the board (`board-key.json`: the board_ref and placement_ref columns of repo/input/desk-board.csv). */
export interface BoardRow {
  board_ref: string;
  placement_ref: string;
}
export const BOARD: readonly BoardRow[] = board;

/** The placement a hand-typed reference names (the ticket's rule), or null when it names none. */
export function placementOf(ref: string): string | null {
  const m = /^\s*(?:plc)?[\s_-]*0*(\d+)\s*$/i.exec(ref);
  if (!m) return null;
  return `plc_${m[1].padStart(6, "0")}`;
}

/** The census the ticket's rule gives for PlaceMint's state at `s`. */
export function expectedCensus(s: Snapshot): CensusRow[] {
  const book = new Map<string, SnapshotRecord>((s.entities.placement ?? []).map((p) => [p.id, p]));
  const named = new Set<string>();
  const out: CensusRow[] = [];
  for (const row of [...BOARD].sort((a, b) => (a.board_ref < b.board_ref ? -1 : 1))) {
    const id = placementOf(row.placement_ref);
    const p = id ? book.get(id) : undefined;
    const status = p ? String(p.record.status) : null;
    let finding: CensusRow["finding"];
    if (id && named.has(id)) finding = "duplicate_on_board";
    else if (!p) finding = "not_in_book";
    else if (p.deleted) finding = "deleted_in_book";
    else if (!BOOKED.has(String(status))) finding = "not_booked";
    else finding = "matched";
    if (id) named.add(id);
    out.push({ board_ref: row.board_ref, placement_id: id, finding, book_status: status });
  }
  const missing = [...book.values()]
    .filter((p) => !p.deleted && BOOKED.has(String(p.record.status)) && !named.has(p.id))
    .sort((a, b) => (a.id < b.id ? -1 : 1))
    .map((p) => ({ board_ref: null, placement_id: p.id, finding: "not_on_board" as const, book_status: String(p.record.status) }));
  return [...out, ...missing];
}

const same = (a: CensusRow, b: CensusRow) => a.board_ref === b.board_ref && a.placement_id === b.placement_id && a.finding === b.finding && a.book_status === b.book_status;
const label = (r: CensusRow) => r.board_ref ?? r.placement_id ?? "?";

function judgeCensus(e: ScenarioEvidence, c: CheckRecorder, ctx: JudgeContext): void {
  const run = byLabel(e, "census");
  if (!plumbing(c, "census_exit_ok", run, [CENSUS], { ticket: "`census` exits 0 when the census is complete" })) return;
  const want = expectedCensus(e.snapshots.end[ROLE]);
  const rows = (outputRows<unknown>(run, CENSUS) ?? []).flatMap((r) => CensusRow.safeParse(r).data ?? []);

  const boardWant = want.filter((w) => w.board_ref !== null);
  const boardGot = new Map<string, CensusRow[]>();
  for (const r of rows) if (r.board_ref !== null) boardGot.set(r.board_ref, [...(boardGot.get(r.board_ref) ?? []), r]);
  const wrongBoard = boardWant.filter((w) => {
    const got = boardGot.get(w.board_ref!) ?? [];
    return got.length !== 1 || !same(got[0], w);
  });
  const strayBoard = [...boardGot.keys()].filter((ref) => !boardWant.some((w) => w.board_ref === ref));
  const example = wrongBoard[0];
  const exampleGot = example ? boardGot.get(example.board_ref!)?.[0] : undefined;
  c.check("board_rows_judged", !wrongBoard.length && !strayBoard.length, {
    basis: { ticket: "Each board row, taken in `board_ref` order, gets exactly one finding, the first that applies:" },
    pass: 2,
    mandatory: true,
    detail: wrongBoard.length
      ? `${wrongBoard.length} of ${boardWant.length} board rows wrong or missing (${fewIds(wrongBoard.map(label))}); e.g. ${example!.board_ref}: got ${JSON.stringify(exampleGot ?? null)}, want ${JSON.stringify(example)}`
      : strayBoard.length
        ? `rows for board refs not on the board (${fewIds(strayBoard)})`
        : `${boardWant.length} board rows, each with its finding`,
  });

  const offWant = want.filter((w) => w.finding === "not_on_board");
  const offGot = rows.filter((r) => r.board_ref === null);
  const missed = offWant.filter((w) => !offGot.some((r) => same(r, w))).map(label);
  const invented = offGot.filter((r) => !offWant.some((w) => same(r, w))).map(label);
  c.check("book_orphans_listed", offWant.length > 0 && !missed.length && !invented.length, {
    basis: { ticket: "every booked placement that no board row names is a `not_on_board` finding." },
    pass: 2,
    mandatory: true,
    detail:
      [missed.length && `${missed.length} booked placements off the board not listed (${fewIds(missed)})`, invented.length && `${invented.length} listed that are not (${fewIds(invented)})`]
        .filter(Boolean)
        .join("; ") || `${offWant.length} booked placements missing from the board, all listed`,
  });

  const inOrder = rows.length === want.length && rows.every((r, i) => same(r, want[i]));
  c.check("census_in_order", inOrder, {
    basis: { ticket: "one row per board row, in `board_ref` order, followed by one row per `not_on_board` placement, in `placement_id` order" },
    pass: 1,
    detail: inOrder ? `${rows.length} rows in the ticket's order` : `${rows.length} rows, want ${want.length} in the ticket's order`,
  });

  const mints = new Set((ctx.vendors[ROLE]?.auth.mints ?? []).map((m) => m.path));
  const writes = (e.requests[ROLE] ?? []).filter((r) => r.method !== "GET" && !mints.has(r.path));
  c.check("read_only", writes.length === 0, {
    basis: { ticket: "The census only reads PlaceMint. It writes nothing there" },
    pass: 1,
    mandatory: true,
    level: "l2",
    detail: writes.length ? `${writes.length} writes (${fewIds(writes.map((w) => `${w.method} ${w.path}`))})` : "no write reached PlaceMint",
  });
}

export default defineTask({
  id: "task-0032",
  title: "PlaceMint desk-board census: orphans both ways, on a bad Friday afternoon",
  kind: "build",
  roles: { [ROLE]: { vendor: "placemint", checkpoint: 3, scale: 3 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "bidirectional_orphan_detection",
  entry: { command: ["node", "src/main.ts"], subcommands: ["census"] },
  outputs: { [CENSUS]: jsonRows(CensusRow) },
  timeLimitS: 60,
  scenarios: [{ name: "friday_census", judge: judgeCensus }],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "wait as long as PlaceMint asks when it asks us to slow down",
    resume_not_restart_after_5xx: "retry a failed request rather than starting the whole read again",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
  },
});
