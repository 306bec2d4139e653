import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { byLabel, fewIds, outputRows, plumbing } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import links from "./links-key.json" with { type: "json" };

const CRM = "crm";
const BOOK = "book";
const COPIES = "copies.json";
const SYNC = "Placement sync";

/**
 * Faults of the morning (declared in PlaceMint's declaration): the first note written answers
 * 500 after PlaceMint stored it, PlaceMint revokes every token after a few requests, and the
 * notes feed shifts under a crawl after its third page (the newest notes move to its head, so an
 * offset crawl sees some notes twice and misses those; two linked placements carry them).
 */
export const BOOK_FAULTS = ["pm-note-500-after-commit", "pm-tokens-revoked", "pm-notes-shuffle"];

/** One link of the sheet (`links-key.json`: the distinct id pairs of repo/input/links.csv, ids as the systems write them). */
export interface Link {
  candidate_id: string;
  placement_id: string;
}
export const LINKS: readonly Link[] = links;

const DIRECTIONS = ["placemint_to_recruitos", "recruitos_to_placemint"] as const;
type Direction = (typeof DIRECTIONS)[number];

const Row = z.looseObject({
  direction: z.enum(DIRECTIONS),
  candidate_id: z.string(),
  placement_id: z.string(),
  source_note_id: z.string(),
  copy_id: z.string(),
});
type Row = z.infer<typeof Row>;

/** The summary of a PlaceMint note's copy in RecruitOS, and the body of a RecruitOS note's copy in PlaceMint. */
export const toRecruitOS = (author: unknown, body: unknown) => `PlaceMint note by ${String(author)}: ${String(body)}`;
export const toPlaceMint = (loggedBy: unknown, summary: unknown) => `RecruitOS note by ${String(loggedBy)}: ${String(summary)}`;

/** A copy the rule calls for: where it goes and what it says. */
interface Wanted {
  direction: Direction;
  link: Link;
  source: string;
  text: string;
}

const live = (s: Snapshot, entity: string) => (s.entities[entity] ?? []).filter((r) => !r.deleted);

/** The copies the ticket's rule calls for, from the two systems before the run. */
function wanted(crm: Snapshot, book: Snapshot): Wanted[] {
  const placements = new Map((book.entities.placement ?? []).map((p) => [p.id, p]));
  const out: Wanted[] = [];
  for (const link of LINKS) {
    const p = placements.get(link.placement_id);
    if (!p || p.deleted) continue;
    for (const n of live(book, "note")) {
      if (n.record.placement_id !== link.placement_id || n.record.author === SYNC) continue;
      out.push({ direction: "placemint_to_recruitos", link, source: n.id, text: toRecruitOS(n.record.author, n.record.body) });
    }
    for (const a of live(crm, "activity")) {
      if (String(a.record.candidateId) !== link.candidate_id || a.record.type !== "note" || a.record.loggedBy === SYNC) continue;
      out.push({ direction: "recruitos_to_placemint", link, source: a.id, text: toPlaceMint(a.record.loggedBy, a.record.summary) });
    }
  }
  return out;
}

/** Records of `entity` at `now` that were not there at `start`. */
const created = (start: Snapshot, now: Snapshot, entity: string): SnapshotRecord[] => {
  const had = new Set((start.entities[entity] ?? []).map((r) => r.id));
  return live(now, entity).filter((r) => !had.has(r.id));
};

/** Whether a record the run created is the copy `w` calls for. */
function isCopy(w: Wanted, r: SnapshotRecord): boolean {
  if (w.direction === "placemint_to_recruitos") return String(r.record.candidateId) === w.link.candidate_id && r.record.type === "note" && r.record.loggedBy === SYNC && r.record.summary === w.text;
  return r.record.placement_id === w.link.placement_id && r.record.author === SYNC && r.record.visibility === "agency" && r.record.body === w.text;
}

const rowsOf = (run: ConnectorRun | undefined): Row[] | null => {
  const rows = outputRows<unknown>(run, COPIES);
  if (!rows) return null;
  return rows.flatMap((r) => {
    const row = Row.safeParse(r).data;
    return row ? [row] : [];
  });
};

/** What is wrong with the copies a run wrote, given what the rule calls for. */
function copyProblems(want: Wanted[], writtenToCrm: SnapshotRecord[], writtenToBook: SnapshotRecord[]): { problems: string[]; made: Map<string, string> } {
  const made = new Map<string, string>();
  const missing: string[] = [];
  const twice: string[] = [];
  const used = new Set<string>();
  for (const w of want) {
    const pool = w.direction === "placemint_to_recruitos" ? writtenToCrm : writtenToBook;
    const copies = pool.filter((r) => isCopy(w, r));
    for (const r of copies) used.add(r.id);
    if (!copies.length) missing.push(w.source);
    if (copies.length > 1) twice.push(`${w.source} x${copies.length}`);
    if (copies.length === 1) made.set(w.source, copies[0].id);
  }
  const stray = [...writtenToCrm, ...writtenToBook].filter((r) => !used.has(r.id)).map((r) => r.id);
  return {
    made,
    problems: [
      missing.length && `${missing.length} of ${want.length} notes not copied (${fewIds(missing)})`,
      twice.length && `${twice.length} notes copied more than once (${fewIds(twice)})`,
      stray.length && `${stray.length} other notes or activities written (${fewIds(stray)})`,
    ].filter((p): p is string => typeof p === "string"),
  };
}

function reportProblems(rows: Row[] | null, want: Wanted[], made: Map<string, string>): string[] {
  if (!rows) return ["copies.json is not a JSON array"];
  const wantBySource = new Map(want.map((w) => [w.source, w]));
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const r of rows) {
    const w = wantBySource.get(r.source_note_id);
    const copy = made.get(r.source_note_id);
    listed.add(r.source_note_id);
    if (!w || !copy) problems.push(`row for ${r.source_note_id}, which this run did not copy`);
    else if (r.direction !== w.direction || r.candidate_id !== w.link.candidate_id || r.placement_id !== w.link.placement_id || r.copy_id !== copy)
      problems.push(`row for ${r.source_note_id} does not say what was written (want ${w.direction} ${w.link.candidate_id}/${w.link.placement_id} -> ${copy})`);
  }
  const unlisted = [...made.keys()].filter((s) => !listed.has(s));
  if (unlisted.length) problems.push(`${unlisted.length} copies written but not listed (${fewIds(unlisted)})`);
  if (rows.length !== new Set(rows.map((r) => r.source_note_id)).size) problems.push("a note is listed twice");
  const ids = rows.map((r) => r.source_note_id);
  if (ids.join(",") !== [...ids].sort().join(",")) problems.push("not sorted by source_note_id");
  return problems;
}

function judgeSync(e: ScenarioEvidence, c: CheckRecorder): void {
  const first = byLabel(e, "sync");
  if (!plumbing(c, "sync_exit_ok", first, [COPIES], { ticket: "`sync` exits 0 when every link has been dealt with" })) return;
  const [crm0, book0] = [e.snapshots.before[CRM], e.snapshots.before[BOOK]];
  const [crm1, book1] = [e.snapshots.after[CRM], e.snapshots.after[BOOK]];
  const want = wanted(crm0, book0);
  const { problems, made } = copyProblems(want, created(crm0, crm1, "activity"), created(book0, book1, "note"));
  const toCrm = want.filter((w) => w.direction === "placemint_to_recruitos").length;
  c.check("notes_copied_once", problems.length === 0, {
    basis: { ticket: "Each note a person wrote ends up exactly once on the other side, and nothing else is written to either system." },
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: problems.join("; ") || `${toCrm} PlaceMint notes and ${want.length - toCrm} RecruitOS notes, each copied once`,
  });
  const report = reportProblems(rowsOf(first), want, made);
  c.check("copies_listed", report.length === 0, {
    basis: { ticket: "`copies.json` lists what the run wrote" },
    pass: 1,
    mandatory: true,
    detail: report.join("; ") || `${made.size} copies listed`,
  });

  const rerun = byLabel(e, "rerun");
  if (!plumbing(c, "rerun_exit_ok", rerun, [COPIES], { ticket: "`sync` exits 0 when every link has been dealt with" })) return;
  const [crm2, book2] = [e.snapshots.rerun[CRM], e.snapshots.rerun[BOOK]];
  const echoed = [...created(crm1, crm2, "activity"), ...created(book1, book2, "note")];
  c.check("rerun_writes_nothing", echoed.length === 0, {
    basis: { ticket: "a second run straight after writes nothing." },
    pass: 2,
    mandatory: true,
    detail: echoed.length
      ? `the second run wrote ${echoed.length} notes or activities: ${echoed
          .slice(0, 2)
          .map((r) => JSON.stringify(r.record.summary ?? r.record.body))
          .join("; ")}`
      : "the second run wrote nothing",
  });
  const rerunRows = rowsOf(rerun);
  c.check("rerun_copies_listed", rerunRows !== null && rerunRows.length === echoed.length, {
    basis: { ticket: "A run that had nothing to copy writes `[]`." },
    pass: 1,
    detail: rerunRows === null ? "copies.json is not a JSON array" : `the second run listed ${rerunRows.length} copies and wrote ${echoed.length}`,
  });
}

export default defineTask({
  id: "task-0033",
  title: "RecruitOS and PlaceMint: copy notes both ways along the links, never a copy back",
  kind: "build",
  // PlaceMint after its checkpoint-4 clean-up: in every seed's world some linked placements are
  // deleted (with notes on them) and some notes on live linked placements are deleted.
  roles: { [CRM]: { vendor: "recruitos", checkpoint: 1 }, [BOOK]: { vendor: "placemint", checkpoint: 4 } },
  seed: 1,
  docsProfile: "true",
  surfaces: ["polling", "writeback"],
  primaryMechanic: "echo_suppressed_two_way_sync",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync"] },
  outputs: { [COPIES]: jsonRows(Row) },
  timeLimitS: 90,
  scenarios: [{ name: "two_way_note_sync", judge: (e, c) => judgeSync(e, c) }],
  conduct: {
    no_credentials_in_query_string: "keep credentials out of URLs",
    no_secrets_echoed_to_vendor: "keep credentials out of URLs",
    retry_after_honored: "wait as long as a vendor asks when it asks us to slow down",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
    idempotent_write_retries: "a copy must still land exactly once",
  },
});
