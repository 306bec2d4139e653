// TalentForge new-hire writeback. Command: apply (reads data/new-hires.json).
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { candidateInput, keyFor, loadBatch, type Batch, type Hire } from "./batch.ts";
import { loadConfig } from "./config.ts";
import { ApiError, TalentForge } from "./talentforge.ts";

interface ResultRow {
  client_ref: string;
  ok: boolean;
  talentforge_id: string | null;
  note_id: string | null;
  error?: string;
}

/** TalentForge said no to this write (validation, missing record); auth and rate-limit failures are not refusals. */
function refusal(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status >= 400 && err.status < 500 && ![401, 403, 429].includes(err.status);
}

/**
 * Applies one hire: the candidate, then its note. Each write carries a key
 * derived from the batch and the hire, so whatever happened before (a lost
 * answer, a dead session, an earlier attempt of the whole batch) TalentForge
 * either writes it now or answers with what it wrote the first time.
 */
async function applyHire(tf: TalentForge, batch: Batch, hire: Hire): Promise<ResultRow> {
  const row: ResultRow = { client_ref: hire.client_ref, ok: false, talentforge_id: null, note_id: null };
  try {
    const created = await tf.call("POST", "/rest/candidates", { body: candidateInput(hire), idempotencyKey: keyFor(batch, hire, "candidate") });
    row.talentforge_id = String((created.body as { id: string }).id);
    if (created.replayed) console.error(`${hire.client_ref}: candidate ${row.talentforge_id} already created earlier`);
  } catch (err) {
    if (refusal(err)) {
      row.error = `TalentForge refused the candidate: ${err.status === 422 ? err.fieldErrors() : err.message}`;
      return row;
    }
    throw err;
  }
  try {
    const note = await tf.call("POST", `/rest/candidates/${encodeURIComponent(row.talentforge_id)}/notes`, {
      body: { body: hire.onboarding_note, author: batch.note_author },
      idempotencyKey: keyFor(batch, hire, "note"),
    });
    row.note_id = String((note.body as { id: string }).id);
  } catch (err) {
    if (refusal(err)) {
      row.error = `TalentForge refused the onboarding note: ${err.status === 422 ? err.fieldErrors() : err.message}`;
      return row;
    }
    throw err;
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
  const rows: ResultRow[] = [];
  // One hire at a time, in batch order: nothing here is slow enough to need more.
  for (const hire of batch.hires) rows.push(await applyHire(tf, batch, hire));
  rows.sort((a, b) => (a.client_ref < b.client_ref ? -1 : a.client_ref > b.client_ref ? 1 : 0));
  writeJson(config.outputDir, "writeback_result.json", rows);
  const applied = rows.filter((r) => r.ok).length;
  console.error(`apply: ${applied} of ${rows.length} hires in TalentForge, ${rows.length - applied} refused`);
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
