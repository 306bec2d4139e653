import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { CheckLevel } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { outputRows, plumbing } from "../shared/judging.ts";
import batch from "./repo/data/new-hires.json" with { type: "json" };
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { objects } from "../shared/rows.ts";

const FILE = "writeback_result.json";
const FILES = [FILE];
export const LOST_ANSWER = "tf-create-500-after-commit";
export const REVOKED = "tf-session-revoked";
const CREATE_PATH = "/rest/candidates";
const NOTE_PATH = /^\/rest\/candidates\/[^/]+\/notes$/;

/** One hire of the batch the starter ships (`repo/data/new-hires.json`). */
interface Hire {
  client_ref: string;
  legal_first_name: string;
  legal_last_name: string;
  personal_email: string;
  mobile: string | null;
  job_title: string;
  work_location: string;
  onboarding_note: string;
}

/** One row of writeback_result.json, as the ticket defines it. */
interface ResultRow {
  client_ref: unknown;
  ok: unknown;
  talentforge_id: unknown;
  note_id: unknown;
}

const HIRES: Hire[] = batch.hires;
const NOTE_AUTHOR: string = batch.note_author;

/** The createCandidate body the ticket's mapping gives for a hire. */
function candidateBody(h: Hire): Record<string, string | null> {
  return { given_name: h.legal_first_name, family_name: h.legal_last_name, email: h.personal_email, phone: h.mobile || null, current_title: h.job_title, location: h.work_location };
}

/** Whether TalentForge takes a write body, by the declared inputs of the write (required, type, length). */
function acceptedBy(vendor: Vendor, writeName: string, body: Record<string, unknown>): boolean {
  const write = vendor.writes.find((w) => w.name === writeName);
  if (!write) return false;
  return write.inputs.every((input) => {
    const v = body[input.name];
    if (v === undefined || v === null || v === "") return !input.required;
    if (input.type === "string" && typeof v !== "string") return false;
    return input.maxLength === undefined || String(v).length <= input.maxLength;
  });
}

const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();
const live = (s: Snapshot, entity: string): SnapshotRecord[] => (s.entities[entity] ?? []).filter((r) => !r.deleted);
const few = (xs: string[]) => `${xs.slice(0, 4).join(", ")}${xs.length > 4 ? ", ..." : ""}`;

/** The hires TalentForge accepts (the others are refused with a 422 and must not exist). */
function accepted(vendor: Vendor): Set<string> {
  return new Set(
    HIRES.filter((h) => acceptedBy(vendor, "createCandidate", candidateBody(h)) && acceptedBy(vendor, "addNote", { body: h.onboarding_note, author: NOTE_AUTHOR })).map((h) => h.client_ref),
  );
}

/** What of one hire exists in TalentForge at a snapshot. */
interface Landed {
  candidates: SnapshotRecord[];
  /** Live notes with the hire's onboarding text, wherever they are. */
  notes: SnapshotRecord[];
}

function landed(s: Snapshot): Map<string, Landed> {
  const cands = live(s, "candidate");
  const notes = live(s, "note");
  return new Map(
    HIRES.map((h) => [h.client_ref, { candidates: cands.filter((r) => emailKey(r.record.email) === emailKey(h.personal_email)), notes: notes.filter((n) => n.record.body === h.onboarding_note) }]),
  );
}

/** The three checks every scenario's final state answers to; names carry the scenario's prefix. */
function judgeOutcome(c: CheckRecorder, vendor: Vendor, run: ConnectorRun, after: Snapshot, prefix: string, level: CheckLevel): void {
  const ok = accepted(vendor);
  const state = landed(after);

  const wrongCount: string[] = [];
  for (const h of HIRES) {
    const want = ok.has(h.client_ref) ? 1 : 0;
    const have = state.get(h.client_ref)!.candidates.length;
    if (have !== want) wrongCount.push(`${h.client_ref}: ${have} candidates${want ? "" : " (TalentForge refuses this hire)"}`);
  }
  c.check(`${prefix}each_hire_created_once`, wrongCount.length === 0, {
    basis: { ticket: "one candidate per hire, one onboarding note per candidate" },
    pass: 2,
    mandatory: true,
    level,
    detail: wrongCount.length
      ? `${wrongCount.length} hires do not exist exactly as often as they should: ${few(wrongCount)}`
      : `${ok.size} accepted hires exist once each, ${HIRES.length - ok.size} refused hire(s) not at all`,
  });

  const wrongNotes: string[] = [];
  for (const h of HIRES) {
    const { candidates, notes } = state.get(h.client_ref)!;
    const ids = new Set(candidates.map((r) => r.id));
    if (!ok.has(h.client_ref)) {
      if (notes.length) wrongNotes.push(`${h.client_ref}: ${notes.length} notes for a refused hire`);
      continue;
    }
    if (notes.length !== 1) wrongNotes.push(`${h.client_ref}: ${notes.length} onboarding notes`);
    else if (!ids.has(String(notes[0].record.candidate_id))) wrongNotes.push(`${h.client_ref}: note on ${String(notes[0].record.candidate_id)}, not on the hire's candidate`);
    else if (notes[0].record.author !== NOTE_AUTHOR) wrongNotes.push(`${h.client_ref}: note author ${JSON.stringify(notes[0].record.author)}`);
  }
  c.check(`${prefix}each_onboarding_note_once`, wrongNotes.length === 0, {
    basis: { ticket: "one candidate per hire, one onboarding note per candidate" },
    pass: 2,
    mandatory: true,
    level,
    detail: wrongNotes.length ? `${wrongNotes.length} hires without exactly one right onboarding note: ${few(wrongNotes)}` : `${ok.size} onboarding notes, one on each hire's candidate`,
  });

  const rows = objects(outputRows<ResultRow>(run, FILE));
  const byRef = new Map<string, ResultRow[]>();
  for (const r of rows) byRef.set(String(r.client_ref), [...(byRef.get(String(r.client_ref)) ?? []), r]);
  const refs = new Set(HIRES.map((h) => h.client_ref));
  const problems: string[] = [];
  for (const h of HIRES) {
    const mine = byRef.get(h.client_ref) ?? [];
    if (mine.length !== 1) {
      problems.push(`${h.client_ref}: ${mine.length} rows`);
      continue;
    }
    const row = mine[0];
    const { candidates, notes } = state.get(h.client_ref)!;
    const candIds = candidates.map((r) => r.id);
    const noteIds = notes.filter((n) => candIds.includes(String(n.record.candidate_id))).map((n) => n.id);
    const tfId = row.talentforge_id ?? null;
    const noteId = row.note_id ?? null;
    if (candIds.length ? !candIds.includes(String(tfId)) : tfId !== null)
      problems.push(`${h.client_ref}: talentforge_id ${JSON.stringify(tfId)}, TalentForge has ${candIds.length ? few(candIds) : "none"}`);
    else if (noteIds.length ? !noteIds.includes(String(noteId)) : noteId !== null)
      problems.push(`${h.client_ref}: note_id ${JSON.stringify(noteId)}, TalentForge has ${noteIds.length ? few(noteIds) : "none"}`);
    else if (row.ok !== (candIds.length > 0 && noteIds.length > 0)) problems.push(`${h.client_ref}: ok is ${JSON.stringify(row.ok)}`);
  }
  const extra = [...byRef.keys()].filter((ref) => !refs.has(ref));
  const sorted = rows.every((r, i) => i === 0 || String(rows[i - 1].client_ref) < String(r.client_ref));
  const truthful = !problems.length && !extra.length && sorted && rows.length === HIRES.length;
  c.check(`${prefix}result_true_to_talentforge`, truthful, {
    basis: { ticket: "Say what really happened, not what you attempted." },
    pass: 2,
    mandatory: true,
    level,
    detail: truthful
      ? `${HIRES.length} rows, each true to TalentForge`
      : [problems.length && `${problems.length} rows wrong (${few(problems)})`, extra.length && `${extra.length} rows for no hire (${few(extra)})`, !sorted && "not sorted by client_ref"]
          .filter(Boolean)
          .join("; ") || `${rows.length} rows for ${HIRES.length} hires`,
  });
}

const writesOf = (requests: RequestLogEntry[]) => requests.filter((r) => r.method === "POST" && (r.path === CREATE_PATH || NOTE_PATH.test(r.path)));
const bodyEmail = (r: RequestLogEntry) => emailKey((r.body as Record<string, unknown> | null)?.email);
const mintPath = (vendor: Vendor, kind: string) => vendor.auth.mints.find((m) => m.kind === kind)?.path ?? "";

export default defineTask({
  id: "task-0008",
  title: "Workday new hires into TalentForge: idempotent writes through lost answers, revoked sessions and reruns",
  kind: "build",
  roles: { ats: { vendor: "talentforge", checkpoint: 0 } },
  seed: 7,
  // TalentForge's documented lies (updated_since, sliding sessions, 50 notes a page) touch
  // reads and long runs, not a short write path: stale docs would only add noise here. The
  // faults this task is about (an answer lost after a commit, an off-spec 403 on revoked
  // credentials) are in no documentation, so true docs keep the naive's failure about them.
  docsProfile: "true",
  surfaces: ["writeback"],
  primaryMechanic: "idempotency_keys_across_retry_storm",
  entry: { command: ["node", "src/main.ts"], subcommands: ["apply"] },
  outputs: {
    [FILE]: jsonRows(z.looseObject({ client_ref: z.string(), ok: z.boolean(), talentforge_id: z.string().nullable(), note_id: z.string().nullable(), error: z.string().optional() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      name: "clean_apply",
      judge: (e, c, ctx) => {
        const run = e.runs[0];
        if (!plumbing(c, "clean_apply_exit_ok", run, FILES, { ticket: "The command exits 0 when it has dealt with every hire, including the ones TalentForge refused." })) return;
        const vendor = ctx.vendors.ats;
        const before = e.snapshots.before.ats;
        const after = e.snapshots.after.ats;
        judgeOutcome(c, vendor, run, after, "clean_", "l1");

        const ok = accepted(vendor);
        const state = landed(after);
        const wrongFields: string[] = [];
        for (const h of HIRES) {
          if (!ok.has(h.client_ref)) continue;
          const want = candidateBody(h);
          for (const cand of state.get(h.client_ref)!.candidates) {
            const off = Object.keys(want).filter((k) => (cand.record[k] ?? null) !== want[k]);
            if (off.length) wrongFields.push(`${h.client_ref} (${off.join(", ")})`);
          }
        }
        c.check("clean_hire_fields_as_mapped", wrongFields.length === 0, {
          basis: { ticket: "Create one TalentForge candidate (`POST /rest/candidates`):" },
          detail: wrongFields.length ? `${wrongFields.length} candidates not filled as the mapping says: ${few(wrongFields)}` : "every candidate filled as the mapping says",
        });

        // Nothing but the batch: records that existed are unchanged, new ones are the batch's.
        const changed: string[] = [];
        for (const [entity, rows] of Object.entries(before.entities)) {
          const now = new Map((after.entities[entity] ?? []).map((r) => [r.id, r]));
          for (const r of rows) if (JSON.stringify(now.get(r.id)) !== JSON.stringify(r)) changed.push(`${entity} ${r.id}`);
        }
        const emails = new Set(HIRES.filter((h) => ok.has(h.client_ref)).map((h) => emailKey(h.personal_email)));
        const texts = new Set(HIRES.filter((h) => ok.has(h.client_ref)).map((h) => h.onboarding_note));
        const stray: string[] = [];
        for (const [entity, rows] of Object.entries(after.entities)) {
          const existed = new Set((before.entities[entity] ?? []).map((r) => r.id));
          for (const r of rows) {
            if (existed.has(r.id)) continue;
            const ours = entity === "candidate" ? emails.has(emailKey(r.record.email)) : entity === "note" ? texts.has(String(r.record.body)) : false;
            if (!ours) stray.push(`${entity} ${r.id}`);
          }
        }
        c.check("clean_nothing_else_written", !changed.length && !stray.length, {
          basis: { ticket: "Write nothing to TalentForge but the batch's candidates and their notes." },
          mandatory: true,
          detail:
            changed.length || stray.length
              ? `${changed.length} existing records changed (${few(changed)}), ${stray.length} records outside the batch created (${few(stray)})`
              : "only the batch's candidates and notes were added",
        });

        const writes = writesOf(e.requests.ats ?? []);
        if (writes.length) {
          const bare = writes.filter((r) => !r.idempotencyKey);
          c.check("clean_writes_carry_idempotency_key", !bare.length, {
            basis: { ticket: "Its partner terms ask for an `Idempotency-Key` on every write." },
            level: "l2",
            detail: bare.length ? `${bare.length} of ${writes.length} writes without an Idempotency-Key (first #${bare[0].seq})` : `${writes.length} writes, each with an Idempotency-Key`,
          });
        }
      },
    },
    {
      name: "retry_storm",
      judge: (e, c, ctx) => {
        const run = e.runs[0];
        if (!plumbing(c, "storm_apply_exit_ok", run, FILES, { ticket: "The command exits 0 when it has dealt with every hire, including the ones TalentForge refused." })) return;
        const vendor = ctx.vendors.ats;
        const after = e.snapshots.after.ats;
        judgeOutcome(c, vendor, run, after, "storm_", "l3");
        const requests = [...(e.requests.ats ?? [])].sort((a, b) => a.seq - b.seq);

        // The create whose answer was lost: settled without a second record. Every later create
        // of that hire carries the lost create's key, or there is none at all (the outcome was
        // read back) and the hire exists once. A resend with another key, or none, is the mistake.
        const lost = requests.find((r) => r.method === "POST" && r.path === CREATE_PATH && r.faults.includes(LOST_ANSWER));
        if (lost) {
          const email = bodyEmail(lost);
          const hire = HIRES.find((h) => emailKey(h.personal_email) === email);
          const later = requests.filter((r) => r.seq > lost.seq && r.method === "POST" && r.path === CREATE_PATH && bodyEmail(r) === email);
          const rekeyed = later.filter((r) => !lost.idempotencyKey || r.idempotencyKey !== lost.idempotencyKey);
          const held = hire ? landed(after).get(hire.client_ref)!.candidates.length : 0;
          const who = hire?.client_ref ?? email;
          c.check("storm_lost_create_retried_with_first_key", later.length ? !rekeyed.length : held === 1, {
            basis: { ticket: "Retries are fine and expected; duplicates are not." },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: !rekeyed.length
              ? later.length
                ? `${later.length} later attempts at ${who} reuse the key of the create whose answer was lost (#${lost.seq})`
                : `no later create of ${who} after the lost answer (#${lost.seq}); TalentForge holds ${held} candidate(s) for it`
              : !lost.idempotencyKey
                ? `the create of ${who} that committed but answered 500 (#${lost.seq}) carried no Idempotency-Key, and ${later.length} later creates of it followed (first #${later[0].seq})`
                : `${rekeyed.length} later creates of ${who} carry ${rekeyed[0].idempotencyKey ? "another" : "no"} key (first #${rekeyed[0].seq})`,
          });
          const row = objects(outputRows<ResultRow>(run, FILE)).find((r) => String(r.client_ref) === hire?.client_ref);
          const cands = hire
            ? landed(after)
                .get(hire.client_ref)!
                .candidates.map((r) => r.id)
            : [];
          c.check("storm_lost_create_reported_landed", !!row && row.ok === true && cands.includes(String(row.talentforge_id)), {
            basis: { ticket: "Say what really happened, not what you attempted." },
            level: "l3",
            detail: row
              ? `the row of ${hire?.client_ref} says ok ${JSON.stringify(row.ok)}, talentforge_id ${JSON.stringify(row.talentforge_id)}; TalentForge has ${cands.join(", ") || "none"}`
              : `no row for ${hire?.client_ref ?? email}`,
          });
        }

        // The revoked credentials: recovered with a whole new token chain, not given up on, not hammered.
        const refused = requests.filter((r) => r.status === 403 && r.faults.includes(REVOKED));
        const tokenPath = mintPath(vendor, "client_credentials");
        const loginPath = mintPath(vendor, "session_exchange");
        if (!refused.length) {
          c.check("storm_revoked_session_recovered_by_reauth", true, {
            basis: { ticket: "that stays true through server errors, lost sessions and a rerun of the whole batch" },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: "no request presented a revoked token",
          });
        } else {
          const first = refused[0];
          const mint = requests.find((r) => r.seq > first.seq && r.method === "POST" && r.path === tokenPath && r.status === 200);
          const login = mint && requests.find((r) => r.seq > mint.seq && r.method === "POST" && r.path === loginPath && r.status >= 200 && r.status < 300);
          const resumed = login && requests.find((r) => r.seq > login.seq && r.path !== tokenPath && r.path !== loginPath && r.authOutcome === "ok" && r.status < 500);
          c.check("storm_revoked_session_recovered_by_reauth", !!resumed, {
            basis: { ticket: "that stays true through server errors, lost sessions and a rerun of the whole batch" },
            pass: 2,
            mandatory: true,
            level: "l3",
            detail: resumed
              ? `403 token_revoked at #${first.seq}; new access token #${mint!.seq}, new session #${login!.seq}, work resumed #${resumed.seq}`
              : `403 token_revoked at #${first.seq}; ${!mint ? "no new access token was minted after it" : !login ? "no new session was opened with the new access token" : "no request succeeded with the new session"}`,
          });
          c.check("storm_revoked_session_not_retried_blindly", refused.length <= 3, {
            basis: { vendor: "A revoked token stays revoked: every request presenting it is refused with 403 token_revoked" },
            level: "l2",
            detail: `${refused.length} requests answered 403 token_revoked`,
          });
        }
      },
    },
    {
      name: "crash_and_rerun",
      judge: (e, c, ctx) => {
        const rerun = e.runs[1];
        if (!plumbing(c, "rerun_apply_exit_ok", rerun, FILES, { ticket: "The command exits 0 when it has dealt with every hire, including the ones TalentForge refused." })) return;
        const vendor = ctx.vendors.ats;
        const first = e.snapshots.after_first.ats;
        const final = e.snapshots.after_rerun.ats;
        judgeOutcome(c, vendor, rerun, final, "rerun_", "l3");

        // What the rerun created: only what the first attempt had not.
        const ok = accepted(vendor);
        const had = landed(first);
        const missingCand = new Set(HIRES.filter((h) => ok.has(h.client_ref) && had.get(h.client_ref)!.candidates.length === 0).map((h) => emailKey(h.personal_email)));
        const missingNote = new Set(HIRES.filter((h) => ok.has(h.client_ref) && had.get(h.client_ref)!.notes.length === 0).map((h) => h.onboarding_note));
        const extra: string[] = [];
        for (const [entity, rows] of Object.entries(final.entities)) {
          const existed = new Set((first.entities[entity] ?? []).map((r) => r.id));
          for (const r of rows) {
            if (existed.has(r.id)) continue;
            const filled = entity === "candidate" ? missingCand.delete(emailKey(r.record.email)) : entity === "note" ? missingNote.delete(String(r.record.body)) : false;
            if (!filled) extra.push(`${entity} ${r.id}`);
          }
        }
        const made = Object.entries(final.entities).reduce((n, [entity, rows]) => n + rows.length - (first.entities[entity] ?? []).length, 0);
        c.check("rerun_created_nothing_new", !extra.length, {
          basis: { ticket: "Whatever it finds, an attempt must leave TalentForge exactly as one clean run would, and write a complete, true result." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: extra.length
            ? `the rerun created ${extra.length} records the first attempt had already made or the batch does not hold (${few(extra)})`
            : `the rerun created ${made} records, each one the first attempt had not`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials go in headers, never in URLs.",
    no_secrets_echoed_to_vendor: "Credentials go in headers, never in URLs.",
    token_reused_not_reminted: "reuse tokens and sessions while they are valid",
    retry_after_honored: "Follow the documented rate limits",
    idempotent_write_retries: "Its partner terms ask for an `Idempotency-Key` on every write.",
  },
});
