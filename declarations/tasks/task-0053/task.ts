import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { csvRows } from "../../schema/output-contract.ts";
import { defineTask } from "../../schema/task.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";

const ROLE = "book";
const BOOK = "fee_book.csv";
const HEADER = ["placement_id", "adjustment_id", "agency_fee_bps", "agreed_by", "reason"];

/** The morning's faults: the token is revoked a few requests in. */
export const MORNING_FAULTS = ["pm-tokens-revoked"];

const BookRow = z.looseObject(Object.fromEntries(HEADER.map((h) => [h, z.string()])));
type BookRow = Record<string, string>;

const text = (v: unknown) => (v === null || v === undefined ? "" : String(v));

/** The newest live adjustment of each placement: recorded last, then the higher id. */
export function inForce(s: Snapshot): Map<string, SnapshotRecord> {
  const out = new Map<string, SnapshotRecord>();
  for (const a of s.entities.fee_adjustment ?? []) {
    if (a.deleted) continue;
    const pid = text(a.record.placement_id);
    const held = out.get(pid);
    if (!held) {
      out.set(pid, a);
      continue;
    }
    const ta = Date.parse(text(a.record.created_at));
    const th = Date.parse(text(held.record.created_at));
    if (ta > th || (ta === th && a.id > held.id)) out.set(pid, a);
  }
  return out;
}

function judgeBook(e: ScenarioEvidence, c: CheckRecorder): void {
  const run = byLabel(e, "book");
  if (!plumbing(c, "book_exit_ok", run, [BOOK], { ticket: "`book` exits 0 when the book is complete" })) return;
  const want = inForce(e.snapshots.end[ROLE]);
  const rows = (outputRows<unknown>(run, BOOK) ?? []).flatMap((r) => {
    const row = BookRow.safeParse(r).data as BookRow | undefined;
    return row ? [row] : [];
  });
  const got = new Map<string, BookRow>();
  const twice: string[] = [];
  for (const r of rows) {
    if (got.has(r.placement_id)) twice.push(r.placement_id);
    got.set(r.placement_id, r);
  }
  const missing = [...want.keys()].filter((pid) => !got.has(pid));
  const extra = [...got.keys()].filter((pid) => !want.has(pid));
  const wrongFee: string[] = [];
  const wrongText: string[] = [];
  for (const [pid, a] of want) {
    const r = got.get(pid);
    if (!r) continue;
    if (r.adjustment_id.trim() !== a.id || r.agency_fee_bps.trim() !== text(a.record.agency_fee_bps))
      wrongFee.push(`${pid} (${r.adjustment_id} ${r.agency_fee_bps}, want ${a.id} ${text(a.record.agency_fee_bps)})`);
    else if (r.agreed_by !== text(a.record.agreed_by) || r.reason !== text(a.record.reason))
      wrongText.push(`${pid} (reason ${JSON.stringify(r.reason)}, want ${JSON.stringify(text(a.record.reason))})`);
  }
  const sorted = rows.every((r, i) => i === 0 || rows[i - 1].placement_id < r.placement_id);
  c.check("book_complete", !missing.length && !extra.length && !twice.length && sorted, {
    basis: { ticket: "one record per placement that has at least one fee adjustment in PlaceMint, sorted by `placement_id`" },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail:
      [
        missing.length && `${missing.length} of ${want.size} adjusted placements missing (${fewIds(missing)})`,
        extra.length && `${extra.length} rows for placements without an adjustment (${fewIds(extra)})`,
        twice.length && `${twice.length} placements twice (${fewIds(twice)})`,
        !sorted && "not sorted by placement_id",
      ]
        .filter(Boolean)
        .join("; ") || `${want.size} placements, once each`,
  });
  const held = want.size - missing.length;
  c.check("newest_adjustment_in_force", held > 0 && !wrongFee.length, {
    basis: {
      ticket: "The fee in force is the placement's newest adjustment: the one recorded last (`Recorded` in the export), and of two recorded at the same instant the one with the higher adjustment id.",
    },
    pass: 2,
    mandatory: true,
    level: "l1",
    detail: wrongFee.length
      ? `${wrongFee.length} of ${held} placements in the book with another adjustment than the newest: ${wrongFee.slice(0, 3).join("; ")}`
      : `${held} placements in the book, each with its newest adjustment`,
  });
  c.check("reasons_exactly_as_typed", rows.length > 0 && !wrongText.length, {
    basis: { ticket: "`reason` is its reason exactly as the account manager typed it, punctuation, quotation marks and line breaks included" },
    pass: 1,
    mandatory: true,
    level: "l1",
    detail: wrongText.length ? `${wrongText.length} rows with the reason or who agreed it altered: ${wrongText.slice(0, 2).join("; ")}` : "every reason as typed",
  });
}

export default defineTask({
  id: "task-0053",
  title: "PlaceMint fee corrections: the fee book loses every adjustment whose reason holds a semicolon, a quote or a line break, and orders adjustments by a day-first `Recorded`",
  kind: "fix",
  roles: { [ROLE]: { vendor: "placemint", checkpoint: 5 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling"],
  primaryMechanic: "quoted_delimiter_csv_corruption",
  entry: { command: ["node", "src/main.ts"], subcommands: ["book"] },
  outputs: { [BOOK]: csvRows(HEADER, BookRow) },
  timeLimitS: 30,
  scenarios: [{ name: "morning_book", judge: (e, c) => judgeBook(e, c) }],
  conduct: {
    no_credentials_in_query_string: "Keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "Keep credentials out of URLs",
    token_reused_not_reminted: "reuse an access token for as long as it lasts",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
  },
});
