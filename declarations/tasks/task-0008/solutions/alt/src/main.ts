// TalentForge new-hire writeback. Command: apply (reads data/new-hires.json).
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { candidateInput, loadBatch, type Batch, type Hire } from "./batch.ts";
import { loadConfig } from "./config.ts";
import { TalentForge, type Candidate, type Outcome } from "./talentforge.ts";

interface ResultRow {
  client_ref: string;
  ok: boolean;
  talentforge_id: string | null;
  note_id: string | null;
  error?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_SENDS = 4;
const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();

/** The candidate our create for this hire makes: the hire's email and legal name. */
const isHire = (c: Candidate, h: Hire) => emailKey(c.email) === emailKey(h.personal_email) && (c.given_name ?? "") === h.legal_first_name && (c.family_name ?? "") === h.legal_last_name;

/** TalentForge's reason for a refusal: its field errors, else its message. */
function reason(r: Extract<Outcome, { kind: "refused" }>): string {
  const err = (r.body as { error?: { message?: string; field_errors?: { field: string; message: string }[] } } | null)?.error;
  if (Array.isArray(err?.field_errors) && err.field_errors.length) return err.field_errors.map((f) => `${f.field} ${f.message}`).join("; ");
  return `${r.status} ${err?.message ?? JSON.stringify(r.body).slice(0, 200)}`;
}

/**
 * One write, exactly once, settled by reading. A write TalentForge answers
 * is done or refused. A write that gets no answer, or a 5xx, may have landed:
 * instead of sending it again we look for it, and only when it is not there
 * does it go again. What keeps a hire single is the read, which holds however
 * long ago an earlier attempt wrote: TalentForge remembers a key for an hour
 * only. The key (the partner terms ask for one on every write) names the write,
 * the same in every attempt of the batch.
 */
async function writeOnce(tf: TalentForge, path: string, body: unknown, key: string, findIt: () => Promise<string | null>): Promise<{ id: string } | { refused: string }> {
  for (let send = 1; ; send++) {
    const r = await tf.call("POST", path, { body, idempotencyKey: key });
    if (r.kind === "done") return { id: String((r.body as { id: unknown }).id) };
    if (r.kind === "refused") return { refused: reason(r) };
    console.error(`POST ${path}: ${r.why}; reading back whether it landed`);
    await sleep(250 * 2 ** (send - 1));
    const found = await findIt();
    if (found) {
      console.error(`POST ${path}: it landed as ${found}`);
      return { id: found };
    }
    if (send >= MAX_SENDS) throw new Error(`POST ${path}: ${r.why}, and it is not in TalentForge after ${send} sends`);
    console.error(`POST ${path}: not in TalentForge; sending it again`);
  }
}

/**
 * One hire: its candidate (the one an earlier attempt made, else a new one),
 * then its onboarding note (the one already on that candidate, else a new one).
 */
async function applyHire(tf: TalentForge, batch: Batch, hire: Hire, earlier: Candidate | undefined): Promise<ResultRow> {
  const row: ResultRow = { client_ref: hire.client_ref, ok: false, talentforge_id: null, note_id: null };
  const findCandidate = async () => (await tf.candidates()).find((c) => isHire(c, hire))?.id ?? null;
  if (earlier) {
    row.talentforge_id = earlier.id;
    console.error(`${hire.client_ref}: candidate ${earlier.id} made by an earlier attempt`);
  } else {
    const made = await writeOnce(tf, "/rest/candidates", candidateInput(hire), `${batch.batch}/${hire.client_ref}/candidate`, findCandidate);
    if ("refused" in made) {
      row.error = `TalentForge refused the candidate: ${made.refused}`;
      return row;
    }
    row.talentforge_id = made.id;
  }
  const candId = row.talentforge_id;
  const notesPath = `/rest/candidates/${encodeURIComponent(candId)}/notes`;
  const findNote = async () => (await tf.notes(candId)).find((n) => n.body === hire.onboarding_note && n.author === batch.note_author)?.id ?? null;
  const had = earlier ? await findNote() : null;
  if (had) row.note_id = had;
  else {
    const note = await writeOnce(tf, notesPath, { body: hire.onboarding_note, author: batch.note_author }, `${batch.batch}/${hire.client_ref}/note`, findNote);
    if ("refused" in note) {
      row.error = `TalentForge refused the onboarding note: ${note.refused}`;
      return row;
    }
    row.note_id = note.id;
  }
  row.ok = true;
  return row;
}

function writeJson(dir: string, file: string, value: unknown): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${file}.tmp`);
  writeFileSync(tmp, JSON.stringify(value, null, 2) + "\n");
  renameSync(tmp, join(dir, file));
}

async function apply(): Promise<void> {
  const config = loadConfig();
  const batch = loadBatch(join(dirname(fileURLToPath(import.meta.url)), "..", "data", "new-hires.json"));
  const tf = new TalentForge(config);
  // An earlier attempt of this batch may have made some of it: TalentForge is
  // the record of what exists, so read it once before writing anything. The
  // hires are new people, so a candidate with a hire's email and legal name is
  // one this job made.
  const existing = await tf.candidates();
  const rows: ResultRow[] = [];
  for (const hire of batch.hires) {
    const mine = existing.filter((c) => isHire(c, hire));
    if (mine.length > 1) console.error(`${hire.client_ref}: ${mine.length} candidates already carry this hire (${mine.map((c) => c.id).join(", ")}); using the first`);
    rows.push(await applyHire(tf, batch, hire, mine[0]));
  }
  rows.sort((a, b) => (a.client_ref < b.client_ref ? -1 : a.client_ref > b.client_ref ? 1 : 0));
  writeJson(config.outputDir, "writeback_result.json", rows);
  const applied = rows.filter((r) => r.ok).length;
  console.error(`apply: ${applied} of ${rows.length} hires in TalentForge, ${rows.length - applied} not applied`);
}

const command = process.argv[2];
if (command !== "apply") {
  console.error("usage: node src/main.ts apply");
  process.exit(2);
}
apply().catch((err: unknown) => {
  console.error(`apply failed: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});
