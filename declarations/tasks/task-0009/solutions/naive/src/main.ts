import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StafflineApi } from "./api.ts";
import { loadConfig } from "./config.ts";

interface ExportRow {
  note_ref: string;
  staffline_candidate_id: string;
  logged_by: string;
  body: string;
}

const config = loadConfig();
const api = new StafflineApi(config);

function write(file: string, rows: unknown[]): void {
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, file), JSON.stringify(rows, null, 2));
}

/** Candidates, deleted ones included as the docs describe (`include_deleted=true`, `deleted: true`). */
async function candidates(): Promise<Record<string, unknown>[]> {
  return api.listAll("/svc/candidates", { include_deleted: "true" });
}

async function sync(): Promise<void> {
  const rows = (await candidates()).map((record) => {
    const { id, deleted, ...data } = record;
    return { source_id: String(id), data, updated_at: record.mod_ts, is_deleted: deleted === true };
  });
  rows.sort((a, b) => (a.source_id < b.source_id ? -1 : 1));
  write("candidates.json", rows);
}

async function importNotes(): Promise<void> {
  // One row per note, as RevOps' export notes describe it.
  const { notes } = JSON.parse(readFileSync(config.exportFile, "utf8")) as { notes: ExportRow[] };
  const deleted = new Set((await candidates()).filter((c) => c.deleted === true).map((c) => String(c.id)));
  const results = [];
  for (const note of notes) {
    const { body } = await api.request("POST", "/svc/rpc/createNote", {}, { candidate_id: note.staffline_candidate_id, note_text: note.body, author: note.logged_by });
    // Documented: failures answer 200 with success false.
    if (body.success === true) {
      results.push({ note_ref: note.note_ref, candidate_id: note.staffline_candidate_id, written: true, staffline_note_id: body.id, reason: null });
      continue;
    }
    const errors = (body.field_errors ?? []) as { field: string; message: string }[];
    const reason = errors.some((e) => e.field === "candidate_id")
      ? deleted.has(note.staffline_candidate_id)
        ? "candidate_deleted"
        : "candidate_not_found"
      : errors.some((e) => e.field === "note_text" && /required/.test(e.message))
        ? "text_missing"
        : "text_too_long";
    results.push({ note_ref: note.note_ref, candidate_id: note.staffline_candidate_id, written: false, staffline_note_id: null, reason });
  }
  results.sort((a, b) => (a.note_ref < b.note_ref ? -1 : a.note_ref > b.note_ref ? 1 : 0));
  write("note_import.json", results);
}

const command = process.argv[2];
if (command !== "sync" && command !== "import-notes") {
  console.error("usage: node src/main.ts sync|import-notes");
  process.exit(2);
}
try {
  await (command === "sync" ? sync() : importNotes());
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
