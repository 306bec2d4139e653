import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { CheckLevel, ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { fewIds, outputRows, plumbing } from "../shared/judging.ts";
import manifest from "./repo/input/scorecards/manifest.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";

export const ROLE = "ats";
const REPORT = "attachment_report.json";
const QUARANTINE = "quarantine.json";
const FILES = [REPORT, QUARANTINE];
const UPLOAD = "uploadAttachment";
const KIND = "other";
/** Faults the scenarios arm (declared in declarations/vendors/talentloop.ts). */
export const LOST_ANSWER = "tl-upload-500-after-commit";
export const REVOKED = "tl-token-revoked-mid-run";
export const PAGE_500 = "tl-candidates-500-page-2";
const ATTACHMENTS_PATH = /^\/v1\/candidates\/([^/]+)\/attachments$/;
const NOTES_PATH = /^\/v1\/candidates\/([^/]+)\/notes$/;

/** One scorecard of the Panelwise export the starter ships (`repo/input/scorecards/manifest.json`). */
interface Scorecard {
  scorecard_id: string;
  talentloop_candidate_id: string | null;
  candidate_email: string;
  stage: string;
  interviewer: string;
  recommendation: string;
  summary: string;
  file: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
}

const CARDS: Scorecard[] = manifest.scorecards;

/**
 * What the export's files hold on disk (`repo/input/scorecards/files/`): their size, SHA-256 and
 * the media type their leading bytes announce (null for files without a signature). Computed
 * from the files when the export was made; PW-58115.pdf is the one cut short, so its digest is
 * not the manifest's.
 */
const FILE_FACTS: Record<string, { bytes: number; sha256: string; signature: string | null }> = {
  "PW-58101.pdf": { bytes: 2445, sha256: "70f1461f9d5e985653852944baf685aeeb24302ba5344b5cdb443db9575d2e5a", signature: "application/pdf" },
  "PW-58102.pdf": { bytes: 2437, sha256: "de380e252213a068ef56ae03886464189258186ca87705e24a6686ab79ab6050", signature: "application/pdf" },
  "PW-58103 panel notes.txt": { bytes: 514, sha256: "f8089675a516506f1eaa4982aaa05aa651b4789cb1bcd8124760fdc7a22a20af", signature: null },
  "PW-58104.pdf": { bytes: 2387, sha256: "f26968694762054dca795c003b8152aaabaf62212440f64df2d139776d145902", signature: "application/pdf" },
  "PW-58105.pdf": { bytes: 2368, sha256: "4f3f29883f456fa62ec02129954ed66856cfe303338e336796eb8a59de8b562b", signature: "application/pdf" },
  "PW-58106.json": { bytes: 411, sha256: "408b2cc85e4ee7972fab7bb42e916f64bd11e2e4b7a80986d57b8d81303e9d1c", signature: null },
  "PW-58107.csv": { bytes: 377, sha256: "65b3a09ec5d3b6fbfb57de072972e71ac06a46c1e400849d365dea056ba060d3", signature: null },
  "PW-58108 whiteboard.png": { bytes: 270497, sha256: "fbe02d39222d7bf7901e3114c21bc8c8693c4cdd46f8b3867102d7ef628335e6", signature: "image/png" },
  "PW-58109.pdf": { bytes: 2389, sha256: "27c3ceaaf852aecfa64e90686a0e959eb30ebe60971cdba85b6f047be128db34", signature: "application/pdf" },
  "PW-58110.pdf": { bytes: 2391, sha256: "3fe063e79756ea28e95a452369b5befb1b0172f71d7006357e0bf56ea4a44e1f", signature: "application/pdf" },
  "PW-58111.pdf": { bytes: 2371, sha256: "067ed9fb12778858799c136e80cde901c6b285b90ae2dfe9dc4823b8d66152bf", signature: "application/pdf" },
  "PW-58112.txt": { bytes: 245, sha256: "22290e171f35ec6cafcaf6ec5142310e9f4de015115c54babc7d48a893aaa247", signature: null },
  "PW-58113.png": { bytes: 11315, sha256: "5b77d56f1455c76520b21ccd21673686a5d7bd51ecf777389269f55194bdc117", signature: "image/png" },
  "PW-58114 évaluation finale.jpg": { bytes: 608, sha256: "4b8b16d36b7de49924a3dfbcc7988461793e17f6fcefc9f172ada142d138e103", signature: "image/jpeg" },
  "PW-58115.pdf": { bytes: 1324, sha256: "ee61c52224340db6556632199d40f2a112c5195d22abf32e9d03d3a6c40de2fa", signature: "application/pdf" },
  "PW-58116.pdf": { bytes: 2423, sha256: "7e6a7e0fd345be14a050be52fc0033b58a93bd889562f5ba48329dff2b36cd69", signature: "application/pdf" },
};

/** Why a scorecard is quarantined, in the ticket's order of precedence. */
type Reason = "candidate_missing" | "candidate_deleted" | "checksum_mismatch" | "unsupported_type" | "file_too_large";

/** One row of attachment_report.json, as the ticket defines it. */
interface ReportRow {
  scorecard_id: unknown;
  candidate_id: unknown;
  attachment_id: unknown;
  sha256: unknown;
  note_id: unknown;
}

/** One row of quarantine.json. */
interface QuarantineRow {
  scorecard_id: unknown;
  candidate_id: unknown;
  reason: unknown;
  detail: unknown;
}

const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();
const mediaType = (v: string) => v.split(";")[0].trim().toLowerCase();
const noteBody = (c: Scorecard) => `${c.scorecard_id} (${c.stage}, ${c.recommendation}): ${c.summary}`;
const noteAuthor = (c: Scorecard) => c.interviewer.trim().split(/\s+/)[0];
const sortedBy = (rows: { scorecard_id: unknown }[]) => rows.every((r, i) => i === 0 || String(rows[i - 1].scorecard_id) < String(r.scorecard_id));

/** What should become of one scorecard, from the vendor as it stood when the scenario began. */
interface Expectation {
  card: Scorecard;
  /** Live candidates the scorecard may go to (several only when live candidates share a walk-in's email). */
  targets: string[];
  /** The `candidate_id` values a quarantine row may name. */
  named: (string | null)[];
  /** Why it cannot be delivered, or null when it can. */
  reason: Reason | null;
  /** The media type its attachment must carry. */
  type: string;
}

function expectations(vendor: Vendor, start: Snapshot): Expectation[] {
  const upload = vendor.writes.find((w) => w.name === UPLOAD)?.upload;
  const candidates = start.entities.candidate ?? [];
  const byId = new Map(candidates.map((r) => [r.id, r]));
  return CARDS.map((card) => {
    const fact = FILE_FACTS[card.file];
    const type = fact?.signature ?? mediaType(card.content_type);
    const id = card.talentloop_candidate_id?.trim();
    let targets: string[] = [];
    let named: (string | null)[];
    let reason: Reason | null = null;
    if (id) {
      named = [id];
      const r = byId.get(id);
      if (!r) reason = "candidate_missing";
      else if (r.deleted) reason = "candidate_deleted";
      else targets = [id];
    } else {
      targets = candidates.filter((r) => !r.deleted && emailKey(r.record.email) === emailKey(card.candidate_email)).map((r) => r.id);
      named = targets.length ? targets : [null];
      if (!targets.length) reason = "candidate_missing";
    }
    if (!reason && (!fact || fact.sha256 !== card.sha256.trim().toLowerCase())) reason = "checksum_mismatch";
    if (!reason && upload && !upload.accept.includes(type)) reason = "unsupported_type";
    if (!reason && upload && fact.bytes > upload.maxBytes) reason = "file_too_large";
    return { card, targets, named, reason, type };
  });
}

/** What of one scorecard is in TalentLoop at a snapshot: records created since `start` on its candidates that are its. */
interface Landed {
  attachments: SnapshotRecord[];
  notes: SnapshotRecord[];
}

function created(start: Snapshot, now: Snapshot, entity: string): SnapshotRecord[] {
  const existed = new Set((start.entities[entity] ?? []).map((r) => r.id));
  return (now.entities[entity] ?? []).filter((r) => !existed.has(r.id) && !r.deleted);
}

function landed(exp: Expectation[], start: Snapshot, now: Snapshot): Map<string, Landed> {
  const attachments = created(start, now, "attachment");
  const notes = created(start, now, "note");
  return new Map(
    exp.map((e) => {
      const on = new Set(e.targets);
      const fact = FILE_FACTS[e.card.file];
      return [
        e.card.scorecard_id,
        {
          attachments: attachments.filter((a) => on.has(String(a.record.candidate_id)) && (a.record.sha256 === fact?.sha256 || a.record.filename === e.card.file)),
          notes: notes.filter((n) => on.has(String(n.record.candidate_id)) && String(n.record.body ?? "").includes(e.card.scorecard_id)),
        },
      ];
    }),
  );
}

/** The checks every final state answers to; names carry the scenario's prefix. */
function judgeOutcome(c: CheckRecorder, exp: Expectation[], start: Snapshot, now: Snapshot, run: ConnectorRun, prefix: string, level: CheckLevel): void {
  const state = landed(exp, start, now);
  const deliverable = exp.filter((e) => !e.reason);
  const quarantined = exp.filter((e) => e.reason);

  const wrongCount: string[] = [];
  for (const e of exp) {
    const n = state.get(e.card.scorecard_id)!.attachments.length;
    if (e.reason ? n > 0 : n !== 1) wrongCount.push(`${e.card.scorecard_id}: ${n} attachments${e.reason ? ` (${e.reason})` : ""}`);
  }
  c.check(`${prefix}each_scorecard_attached_once`, !wrongCount.length, {
    basis: { ticket: "Each delivered scorecard means exactly one attachment and one note: not two, not zero, whatever happens on the way." },
    pass: 2,
    mandatory: true,
    level,
    detail: wrongCount.length
      ? `${wrongCount.length} scorecards not attached exactly as often as they should be: ${fewIds(wrongCount)}`
      : `${deliverable.length} scorecards attached once each, ${quarantined.length} not at all`,
  });

  const badFiles: string[] = [];
  const badTypes: string[] = [];
  for (const e of deliverable) {
    const [a, ...more] = state.get(e.card.scorecard_id)!.attachments;
    if (!a || more.length) {
      badFiles.push(`${e.card.scorecard_id}: not attached once`);
      badTypes.push(`${e.card.scorecard_id}: not attached once`);
      continue;
    }
    const fact = FILE_FACTS[e.card.file];
    const off = [
      a.record.sha256 !== fact.sha256 && "sha256",
      a.record.size !== fact.bytes && `size ${String(a.record.size)}`,
      a.record.filename !== e.card.file && `filename ${JSON.stringify(a.record.filename)}`,
      a.record.kind !== KIND && `kind ${JSON.stringify(a.record.kind)}`,
    ].filter(Boolean);
    if (off.length) badFiles.push(`${e.card.scorecard_id} (${off.join(", ")})`);
    if (a.record.content_type !== e.type) badTypes.push(`${e.card.scorecard_id}: ${String(a.record.content_type)}, the file is ${e.type}`);
  }
  c.check(`${prefix}attachments_true_to_files`, !badFiles.length, {
    basis: { ticket: "as an attachment of the right name, bytes and type" },
    pass: 2,
    level,
    detail: badFiles.length ? `${badFiles.length} attachments are not the file as exported: ${fewIds(badFiles)}` : `${deliverable.length} attachments with the files' bytes, names and kind`,
  });
  c.check(`${prefix}attachment_types_from_files`, !badTypes.length, {
    basis: { ticket: "TalentLoop previews files by their media type, so the attachment must carry the type the file really has." },
    level,
    detail: badTypes.length ? `${badTypes.length} attachments without the type their file has: ${fewIds(badTypes)}` : `${deliverable.length} attachments typed as their files are`,
  });

  const wrongNotes: string[] = [];
  for (const e of exp) {
    const n = state.get(e.card.scorecard_id)!.notes.length;
    if (e.reason ? n > 0 : n !== 1) wrongNotes.push(`${e.card.scorecard_id}: ${n} notes${e.reason ? ` (${e.reason})` : ""}`);
  }
  c.check(`${prefix}each_delivered_scorecard_noted_once`, !wrongNotes.length, {
    basis: { ticket: "Each delivered scorecard means exactly one attachment and one note: not two, not zero, whatever happens on the way." },
    pass: 2,
    mandatory: true,
    level,
    detail: wrongNotes.length ? `${wrongNotes.length} scorecards without exactly the notes they should have: ${fewIds(wrongNotes)}` : `${deliverable.length} notes, one per delivered scorecard`,
  });

  const badNotes: string[] = [];
  for (const e of deliverable) {
    const notes = state.get(e.card.scorecard_id)!.notes;
    if (notes.length !== 1) badNotes.push(`${e.card.scorecard_id}: ${notes.length} notes`);
    else if (notes[0].record.body !== noteBody(e.card)) badNotes.push(`${e.card.scorecard_id}: body ${JSON.stringify(String(notes[0].record.body).slice(0, 60))}`);
    else if (notes[0].record.author !== noteAuthor(e.card)) badNotes.push(`${e.card.scorecard_id}: author ${JSON.stringify(notes[0].record.author)}`);
  }
  c.check(`${prefix}notes_as_specified`, !badNotes.length, {
    basis: { ticket: "`body`: `<scorecard_id> (<stage>, <recommendation>): <summary>`" },
    level,
    detail: badNotes.length ? `${badNotes.length} notes not written as the ticket says: ${fewIds(badNotes)}` : `${deliverable.length} notes with the ticket's body and author`,
  });

  const report = objects(outputRows<ReportRow>(run, REPORT));
  const reportProblems: string[] = [];
  const reportIds = report.map((r) => String(r.scorecard_id));
  for (const e of deliverable) {
    const mine = report.filter((r) => String(r.scorecard_id) === e.card.scorecard_id);
    const { attachments, notes } = state.get(e.card.scorecard_id)!;
    if (mine.length !== 1) {
      reportProblems.push(`${e.card.scorecard_id}: ${mine.length} rows`);
      continue;
    }
    const row = mine[0];
    const att = attachments.find((a) => a.id === String(row.attachment_id));
    if (!att) reportProblems.push(`${e.card.scorecard_id}: attachment_id ${JSON.stringify(row.attachment_id)}, TalentLoop has ${fewIds(attachments.map((a) => a.id)) || "none"}`);
    else if (row.candidate_id !== att.record.candidate_id) reportProblems.push(`${e.card.scorecard_id}: candidate_id ${JSON.stringify(row.candidate_id)}`);
    else if (row.sha256 !== att.record.sha256) reportProblems.push(`${e.card.scorecard_id}: sha256 is not the attachment's`);
    else if (!notes.some((n) => n.id === String(row.note_id)))
      reportProblems.push(`${e.card.scorecard_id}: note_id ${JSON.stringify(row.note_id)}, TalentLoop has ${fewIds(notes.map((n) => n.id)) || "none"}`);
  }
  const notDelivered = reportIds.filter((id) => !deliverable.some((e) => e.card.scorecard_id === id));
  const reportOk = !reportProblems.length && !notDelivered.length && sortedBy(report) && report.length === deliverable.length;
  c.check(`${prefix}attachment_report_true`, reportOk, {
    basis: { ticket: "Report what is true in TalentLoop when the run ends, not what you attempted." },
    pass: 2,
    mandatory: true,
    level,
    detail: reportOk
      ? `${report.length} rows, each true to TalentLoop`
      : [
          reportProblems.length && `${reportProblems.length} rows wrong or missing (${fewIds(reportProblems)})`,
          notDelivered.length && `${notDelivered.length} rows for scorecards that cannot be delivered (${fewIds(notDelivered)})`,
          !sortedBy(report) && "not sorted by scorecard_id",
        ]
          .filter(Boolean)
          .join("; ") || `${report.length} rows for ${deliverable.length} deliverable scorecards`,
  });

  const rows = objects(outputRows<QuarantineRow>(run, QUARANTINE));
  const quarantineProblems: string[] = [];
  for (const e of quarantined) {
    const mine = rows.filter((r) => String(r.scorecard_id) === e.card.scorecard_id);
    if (mine.length !== 1) {
      quarantineProblems.push(`${e.card.scorecard_id}: ${mine.length} rows`);
      continue;
    }
    const row = mine[0];
    if (row.reason !== e.reason) quarantineProblems.push(`${e.card.scorecard_id}: ${JSON.stringify(row.reason)}, not ${e.reason}`);
    else if (!e.named.includes((row.candidate_id ?? null) as string | null)) quarantineProblems.push(`${e.card.scorecard_id}: candidate_id ${JSON.stringify(row.candidate_id)}`);
    else if (typeof row.detail !== "string") quarantineProblems.push(`${e.card.scorecard_id}: detail is not a string`);
  }
  const wronglyHeld = rows.map((r) => String(r.scorecard_id)).filter((id) => !quarantined.some((e) => e.card.scorecard_id === id));
  const quarantineOk = !quarantineProblems.length && !wronglyHeld.length && sortedBy(rows) && rows.length === quarantined.length;
  c.check(`${prefix}quarantine_true`, quarantineOk, {
    basis: { ticket: "Every other scorecard is in `quarantine.json` with the right reason." },
    pass: 2,
    mandatory: true,
    level,
    detail: quarantineOk
      ? `${rows.length} quarantined scorecards, each with its reason`
      : [
          quarantineProblems.length && `${quarantineProblems.length} rows wrong or missing (${fewIds(quarantineProblems)})`,
          wronglyHeld.length && `${wronglyHeld.length} deliverable scorecards quarantined (${fewIds(wronglyHeld)})`,
          !sortedBy(rows) && "not sorted by scorecard_id",
        ]
          .filter(Boolean)
          .join("; ") || `${rows.length} rows for ${quarantined.length} quarantined scorecards`,
  });

  const changed: string[] = [];
  for (const [entity, before] of Object.entries(start.entities)) {
    const after = new Map((now.entities[entity] ?? []).map((r) => [r.id, r]));
    for (const r of before) if (JSON.stringify(after.get(r.id)) !== JSON.stringify(r)) changed.push(`${entity} ${r.id}`);
  }
  const ours = new Set([...state.values()].flatMap((l) => [...l.attachments, ...l.notes].map((r) => r.id)));
  const stray: string[] = [];
  for (const [entity, after] of Object.entries(now.entities)) {
    const existed = new Set((start.entities[entity] ?? []).map((r) => r.id));
    for (const r of after) if (!existed.has(r.id) && !ours.has(r.id)) stray.push(`${entity} ${r.id}`);
  }
  c.check(`${prefix}nothing_else_written`, !changed.length && !stray.length, {
    basis: { ticket: "Write nothing to TalentLoop besides the scorecards' attachments and notes." },
    mandatory: true,
    level,
    detail:
      changed.length || stray.length
        ? `${changed.length} existing records changed (${fewIds(changed)}), ${stray.length} records that are no scorecard's (${fewIds(stray)})`
        : "only the scorecards' attachments and notes were added",
  });
}

const uploadsOf = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === "POST" && ATTACHMENTS_PATH.test(r.path));
const candidateOf = (path: string) => decodeURIComponent((ATTACHMENTS_PATH.exec(path) ?? NOTES_PATH.exec(path) ?? [])[1] ?? "");
const ordered = (e: ScenarioEvidence) => [...(e.requests[ROLE] ?? [])].sort((a, b) => a.seq - b.seq);

/** A refused file is refused once: neither the run nor a rerun sends it again (recorded whenever files were sent). */
function refusalsOnce(c: CheckRecorder, name: string, requests: RequestLogEntry[], exp: Expectation[]): void {
  if (!uploadsOf(requests).length) return;
  const refused = uploadsOf(requests).filter((r) => r.status === 413 || r.status === 415);
  const perCandidate = new Map<string, number>();
  for (const r of refused) perCandidate.set(candidateOf(r.path), (perCandidate.get(candidateOf(r.path)) ?? 0) + 1);
  const again = [...perCandidate].filter(([cand, n]) => n > exp.filter((e) => e.targets.includes(cand)).length).map(([cand, n]) => `${cand}: ${n} refusals`);
  c.check(name, !again.length, {
    basis: { ticket: "When TalentLoop refuses a file, that refusal is final for this batch." },
    level: "l2",
    detail: again.length ? `files TalentLoop refused were sent again: ${fewIds(again)}` : `${refused.length} uploads refused, none of them sent again`,
  });
}

/** The filename of the file part of a logged multipart body, when the log kept it. */
function loggedFilename(r: RequestLogEntry): string | null {
  if (typeof r.body !== "string") return null;
  const m = /name="file"[^\r\n]*?;\s*filename="([^"]*)"/.exec(r.body);
  return m ? m[1] : null;
}

export default defineTask({
  id: "task-0021",
  title: "Panelwise scorecards onto TalentLoop candidates: multipart attachments with a note, quarantine, no double uploads",
  kind: "build",
  roles: { ats: { vendor: "talentloop", checkpoint: 2 } },
  seed: 21,
  // Stale docs: deleted candidates are said to stay in lists with `deleted: true`, while
  // TalentLoop drops them from lists and answers 410 for them (tl-delete-flag); the page-size
  // cap is given as 500 where it is 100. The faults (an upload whose answer is lost after it
  // committed, tokens revoked mid-run, a 500 on the second candidates page) are in no docs.
  docsProfile: "stale",
  surfaces: ["writeback", "polling"],
  primaryMechanic: "attachment_sidecar_upload",
  entry: { command: ["node", "src/main.ts"], subcommands: ["deliver"] },
  outputs: {
    [REPORT]: jsonRows(z.looseObject({ scorecard_id: z.string(), candidate_id: z.string(), attachment_id: z.string(), sha256: z.string(), note_id: z.string() })),
    [QUARANTINE]: jsonRows(z.looseObject({ scorecard_id: z.string(), candidate_id: z.string().nullable(), reason: z.string(), detail: z.string() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      name: "clean_delivery",
      judge: (e, c, ctx) => {
        const run = e.runs[0];
        if (!plumbing(c, "clean_deliver_exit_ok", run, FILES, { ticket: "`deliver` exits 0 when every scorecard of the batch is in one of the two files." })) return;
        const start = e.snapshots.before[ROLE];
        const exp = expectations(ctx.vendors[ROLE], start);
        judgeOutcome(c, exp, start, e.snapshots.after[ROLE], run, "clean_", "l1");

        const requests = ordered(e);
        const posts = requests.filter((r) => r.method === "POST" && (ATTACHMENTS_PATH.test(r.path) || NOTES_PATH.test(r.path)));
        if (posts.length) {
          const unread = uploadsOf(requests).filter((r) => r.status === 400 || r.status === 422);
          c.check("clean_multipart_well_formed", !unread.length, {
            basis: { vendor: "TalentLoop's attachment upload reads a multipart form with a file part and answers 400 or 422 to anything else" },
            level: "l2",
            detail: unread.length
              ? `${unread.length} uploads TalentLoop could not read as a form with a file part (first #${unread[0].seq}: ${unread[0].status})`
              : "every upload was a form TalentLoop could read",
          });
          const gone = posts.filter((r) => r.status === 404);
          c.check("clean_writes_only_to_live_candidates", !gone.length, {
            basis: { ticket: "Nothing quarantined is written to TalentLoop: no attachment, no note." },
            level: "l2",
            detail: gone.length ? `${gone.length} writes to candidates TalentLoop does not have (first #${gone[0].seq} ${gone[0].path})` : `${posts.length} writes, each to a live candidate`,
          });
        }
        refusalsOnce(c, "clean_refused_files_sent_once", requests, exp);
        if (requests.length) {
          const legacy = requests.filter((r) => r.headers["x-tl-token"] !== undefined);
          c.check("clean_oauth_not_legacy_token", !legacy.length, {
            basis: { ticket: "TalentLoop is retiring its v0 integration token (`TALENTLOOP_LEGACY_TOKEN`): use OAuth client credentials only." },
            level: "l2",
            detail: legacy.length ? `${legacy.length} requests authenticated with the retiring v0 token (first #${legacy[0].seq})` : `${requests.length} requests, none with the v0 token`,
          });
        }
      },
    },
    {
      name: "lost_answer_then_rerun",
      judge: (e, c, ctx) => {
        const [first, rerun] = e.runs;
        const start = e.snapshots.before[ROLE];
        const afterFirst = e.snapshots.after_first[ROLE];
        const final = e.snapshots.after_rerun[ROLE];
        const exp = expectations(ctx.vendors[ROLE], start);
        const requests = ordered(e);
        plumbing(c, "storm_first_attempt_exit_ok", first, FILES, { ticket: "`deliver` exits 0 when every scorecard of the batch is in one of the two files." });

        // The upload whose answer was lost: it landed once, the client looked before sending
        // again, and the first attempt's report names the attachment that exists.
        const lost = requests.find((r) => r.method === "POST" && ATTACHMENTS_PATH.test(r.path) && r.faults.includes(LOST_ANSWER));
        if (lost) {
          const cand = candidateOf(lost.path);
          const file = loggedFilename(lost);
          const onCand = exp.filter((x) => !x.reason && x.targets.includes(cand));
          const lostCards = file && onCand.some((x) => x.card.file === file) ? onCand.filter((x) => x.card.file === file) : onCand;
          const had = landed(exp, start, afterFirst);
          const counts = lostCards.map((x) => `${x.card.scorecard_id}: ${had.get(x.card.scorecard_id)!.attachments.length}`);
          const once = lostCards.length > 0 && lostCards.every((x) => had.get(x.card.scorecard_id)!.attachments.length === 1);
          c.check("storm_lost_upload_landed_once", once, {
            basis: { ticket: "Each delivered scorecard means exactly one attachment and one note: not two, not zero, whatever happens on the way." },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: `upload #${lost.seq} to ${cand} committed and answered 500; after the first attempt: ${counts.join(", ") || "no scorecard of that candidate can be delivered"} attachments`,
          });
          const readBack = requests.find((r) => r.seq > lost.seq && r.method === "GET" && r.path === lost.path && r.status === 200);
          const resent = requests.find((r) => r.seq > lost.seq && r.method === "POST" && r.path === lost.path);
          c.check("storm_lost_upload_read_back", !!readBack && (!resent || readBack.seq < resent.seq), {
            basis: { vendor: "TalentLoop can store an upload and still answer 500; the candidate's attachment list shows whether it landed" },
            level: "l3",
            detail: !readBack
              ? `nothing read ${lost.path} after the lost answer (#${lost.seq})`
              : resent && resent.seq < readBack.seq
                ? `#${resent.seq} uploaded to ${cand} again before reading its attachments (#${readBack.seq})`
                : `#${readBack.seq} read the candidate's attachments after the lost answer (#${lost.seq})`,
          });
          const firstReport = objects(outputRows<ReportRow>(first, REPORT));
          const named = lostCards.filter((x) => {
            const row = firstReport.find((r) => String(r.scorecard_id) === x.card.scorecard_id);
            return !!row && had.get(x.card.scorecard_id)!.attachments.some((a) => a.id === String(row.attachment_id));
          });
          c.check("storm_first_report_names_lost_upload", lostCards.length > 0 && named.length === lostCards.length, {
            basis: { ticket: "Report what is true in TalentLoop when the run ends, not what you attempted." },
            level: "l3",
            detail: `the first attempt's report names the existing attachment of ${named.length} of ${lostCards.length} scorecards whose upload lost its answer`,
          });
        }

        // Revoked tokens: a new one minted and work resumed, without hammering.
        const revoked = requests.filter((r) => r.status === 401 && r.faults.includes(REVOKED));
        if (revoked.length) {
          const tokenPath = ctx.vendors[ROLE].auth.mints[0]?.path ?? "/token";
          const mint = requests.find((r) => r.seq > revoked[0].seq && r.method === "POST" && r.path === tokenPath && r.status === 200);
          const resumed = mint && requests.find((r) => r.seq > mint.seq && r.path !== tokenPath && r.authOutcome === "ok" && r.status < 500);
          c.check("storm_revoked_token_replaced", !!resumed, {
            basis: { ticket: "A token TalentLoop stops accepting before it expires is replaced with a new one, and the run carries on." },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: resumed
              ? `401 token_revoked at #${revoked[0].seq}; new token #${mint!.seq}; work resumed #${resumed.seq}`
              : `401 token_revoked at #${revoked[0].seq}; ${mint ? "no request succeeded with the new token" : "no new token was minted"}`,
          });
          c.check("storm_revoked_token_not_hammered", revoked.length <= 3, {
            basis: { ticket: "do not hammer an endpoint that is failing" },
            level: "l2",
            detail: `${revoked.length} requests answered 401 token_revoked`,
          });
        }
        refusalsOnce(c, "storm_refused_files_never_resent", requests, exp);

        // The rerun is judged even when the first attempt gave up: finishing the job is what reruns are for.
        if (!plumbing(c, "rerun_exit_ok", rerun, FILES, { ticket: "`deliver` exits 0 when every scorecard of the batch is in one of the two files." })) return;
        judgeOutcome(c, exp, start, final, rerun, "rerun_", "l3");

        // What the rerun created: only what the first attempt had left undone.
        const had = landed(exp, start, afterFirst);
        const gapsAtt = new Set(exp.filter((x) => !x.reason && had.get(x.card.scorecard_id)!.attachments.length === 0).map((x) => x.card.scorecard_id));
        const gapsNote = new Set(exp.filter((x) => !x.reason && had.get(x.card.scorecard_id)!.notes.length === 0).map((x) => x.card.scorecard_id));
        const now = landed(exp, afterFirst, final);
        const extra: string[] = [];
        for (const x of exp) {
          const l = now.get(x.card.scorecard_id)!;
          if (l.attachments.length > (gapsAtt.has(x.card.scorecard_id) ? 1 : 0)) extra.push(`${x.card.scorecard_id}: ${l.attachments.length} attachments`);
          if (l.notes.length > (gapsNote.has(x.card.scorecard_id) ? 1 : 0)) extra.push(`${x.card.scorecard_id}: ${l.notes.length} notes`);
        }
        const made = Object.keys(final.entities).reduce((n, entity) => n + created(afterFirst, final, entity).length, 0);
        c.check("rerun_wrote_only_what_was_missing", !extra.length, {
          basis: { ticket: "Whatever it finds, TalentLoop must end up as one clean run would leave it, and the rerun must write complete and true reports." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: extra.length ? `the rerun wrote again what the first attempt had delivered: ${fewIds(extra)}` : `the rerun created ${made} records, each one the first attempt had left undone`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials go in headers, never in URLs.",
    no_secrets_echoed_to_vendor: "Credentials go in headers, never in URLs.",
    token_reused_not_reminted: "reuse access tokens while they are valid",
    retry_after_honored: "Follow the documented rate limits",
    no_hot_loop_on_error: "do not hammer an endpoint that is failing",
  },
});
