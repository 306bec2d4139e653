import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { StafflineApi } from "./api.ts";
import { loadConfig } from "./config.ts";

interface ExportRow {
  legacy_id: string;
  candidate_id: string;
  recruiter: string;
  text: string;
}

interface ItemResult {
  index: number;
  status: number;
  id?: string;
  errors?: { field: string; message: string }[];
}

const command = process.argv[2];
if (command !== "import") {
  console.error("usage: node src/main.ts import");
  process.exit(2);
}

const config = loadConfig();
const api = new StafflineApi(config);

/** Documented: up to 50 notes per bulkCreateNotes call. */
const BATCH = 50;

function reasonOf(errors: { field: string; message: string }[]): string {
  if (errors.some((e) => e.field === "candidate_id")) return "candidate_not_found";
  const text = errors.find((e) => e.field === "note_text");
  return text && /required/.test(text.message) ? "text_missing" : "text_too_long";
}

async function importNotes(): Promise<void> {
  const { notes } = JSON.parse(readFileSync(config.exportFile, "utf8")) as { notes: ExportRow[] };
  const report = [];
  const queue = [...notes];
  let size = BATCH;
  while (queue.length) {
    const batch = queue.slice(0, size);
    // One request_id per batch; the api client retries with the same body, so the same id.
    const { status, body } = await api.request("POST", "/svc/rpc/bulkCreateNotes", {
      request_id: randomUUID(),
      notes: batch.map((r) => ({ candidate_id: r.candidate_id, note_text: r.text, author: r.recruiter })),
    });
    if (status === 413 && size > 1) {
      size = Math.ceil(size / 2);
      continue;
    }
    if (status !== 207) throw new Error(`bulkCreateNotes answered ${status}: ${JSON.stringify(body)}`);
    queue.splice(0, batch.length);
    // Documented: one result per item, with its status and the new id or its errors.
    for (const res of body.results as ItemResult[]) {
      const row = batch[res.index];
      if (res.status === 201) report.push({ legacy_id: row.legacy_id, candidate_id: row.candidate_id, status: "written", staffline_note_id: res.id, reason: null });
      else report.push({ legacy_id: row.legacy_id, candidate_id: row.candidate_id, status: "rejected", staffline_note_id: null, reason: reasonOf(res.errors ?? []) });
    }
  }
  report.sort((a, b) => (a.legacy_id < b.legacy_id ? -1 : a.legacy_id > b.legacy_id ? 1 : 0));
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "import_report.json"), JSON.stringify(report, null, 2));
}

try {
  await importNotes();
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
