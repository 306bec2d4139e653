import { readFileSync } from "node:fs";
import type { Config } from "./config.ts";
import { readJson, sortBy, writeJson } from "./files.ts";
import { deletedCandidates } from "./mirror.ts";
import type { Staffline } from "./staffline.ts";

const CREATE_NOTE = "/svc/rpc/createNote";
const BULK_CREATE_NOTES = "/svc/rpc/bulkCreateNotes";
const LEDGER = ".note-ledger.json";
/** Notes written at the same time. */
const PARALLEL = 4;

/** One row of the Relay CRM export. */
interface ExportRow {
  note_ref: string;
  revision: number;
  staffline_candidate_id: string;
  logged_by: string;
  body: string;
}

type Reason = "candidate_deleted" | "candidate_not_found" | "text_missing" | "text_too_long";

/**
 * What we know of one CRM note in StaffLine, kept across runs. `sending` is
 * written before the call: found on a later run, it means an attempt whose
 * outcome we never learnt, to be settled by reading StaffLine back.
 */
type Entry = { state: "sending" } | { state: "written"; noteId: string } | { state: "refused"; reason: Reason };

/** One row of note_import.json. */
interface ResultRow {
  note_ref: string;
  candidate_id: string;
  written: boolean;
  staffline_note_id: string | null;
  reason: Reason | null;
}

/**
 * The export holds one row per revision of a note (an edit in the CRM adds a
 * row with the same note_ref): each note at its latest revision.
 */
function currentNotes(file: string): ExportRow[] {
  const doc = JSON.parse(readFileSync(file, "utf8")) as { notes: ExportRow[] };
  const latest = new Map<string, ExportRow>();
  for (const row of doc.notes) {
    const had = latest.get(row.note_ref);
    if (!had || row.revision > had.revision) latest.set(row.note_ref, row);
  }
  return sortBy([...latest.values()], (n) => n.note_ref);
}

/** One refused input, as StaffLine reports it. */
interface FieldError {
  field?: string;
  message?: string;
}

/** What became of one attempt at a note. */
type Attempt = { kind: "stored"; id: string } | { kind: "refused"; errors: FieldError[] } | { kind: "unknown"; detail: string };

/** A refusal as the ticket's reason; candidate problems first. */
function reasonOf(errors: FieldError[], deleted: Set<string>, note: ExportRow): Reason {
  if (errors.some((e) => e.field === "candidate_id")) return deleted.has(note.staffline_candidate_id) ? "candidate_deleted" : "candidate_not_found";
  const text = errors.find((e) => e.field === "note_text");
  if (text) return /required/.test(String(text.message)) ? "text_missing" : "text_too_long";
  throw new Error(`StaffLine refused ${note.note_ref} for a reason this job does not know: ${JSON.stringify(errors)}`);
}

const fieldsOf = (note: ExportRow) => ({ candidate_id: note.staffline_candidate_id, note_text: note.body, author: note.logged_by });

/** First attempt: createNote, which answers 200 whether or not it stored the note. */
async function createNote(client: Staffline, note: ExportRow): Promise<Attempt> {
  const outcome = await client.write(CREATE_NOTE, fieldsOf(note));
  if (outcome.kind === "unknown") return outcome;
  const body = outcome.body;
  if (outcome.status === 200 && body.success === true && typeof body.id === "string") return { kind: "stored", id: body.id };
  if (outcome.status === 200 && body.success === false && Array.isArray(body.field_errors)) return { kind: "refused", errors: body.field_errors as FieldError[] };
  throw new Error(`createNote for ${note.note_ref} answered ${outcome.status}: ${JSON.stringify(body)}`);
}

/**
 * Any later attempt: createNote takes no idempotency key, so a note is sent
 * again only through bulkCreateNotes, as a batch of one under a request_id
 * made from the note. Retries of it carry the same request_id.
 */
async function resendNote(client: Staffline, note: ExportRow): Promise<Attempt> {
  const outcome = await client.write(BULK_CREATE_NOTES, { request_id: `relay-${note.note_ref}-r${note.revision}`, notes: [fieldsOf(note)] });
  if (outcome.kind === "unknown") return outcome;
  const body = outcome.body;
  const item = Array.isArray(body.results) ? (body.results[0] as { status?: number; id?: unknown; errors?: FieldError[] }) : undefined;
  if (outcome.status === 207 && item?.status === 201 && typeof item.id === "string") return { kind: "stored", id: item.id };
  if (outcome.status === 207 && item && Array.isArray(item.errors)) return { kind: "refused", errors: item.errors };
  throw new Error(`bulkCreateNotes for ${note.note_ref} answered ${outcome.status}: ${JSON.stringify(body)}`);
}

class Importer {
  private readonly config: Config;
  private readonly client: Staffline;
  private readonly ledger: Record<string, Entry>;
  private deleted = new Set<string>();
  /** Whether the tombstones were read again this run. */
  private reread = false;
  /** Closed while an unknown outcome is being looked up: no new writes until we know. */
  private gate: Promise<void> | null = null;

  constructor(config: Config, client: Staffline) {
    this.config = config;
    this.client = client;
    this.ledger = readJson<Record<string, Entry>>(config.outputDir, LEDGER, {});
  }

  private save(): void {
    writeJson(this.config.outputDir, LEDGER, this.ledger);
  }

  private set(ref: string, entry: Entry): void {
    this.ledger[ref] = entry;
    this.save();
  }

  /**
   * A note of ours StaffLine already holds: same candidate, text and author,
   * and not claimed by another CRM note. createNote takes no idempotency key,
   * so this read is how an unknown outcome is settled without writing twice.
   */
  private async findStored(note: ExportRow): Promise<string | null> {
    const claimed = new Set(Object.values(this.ledger).flatMap((e) => (e.state === "written" ? [e.noteId] : [])));
    const stored = await this.client.listChildren(`/svc/candidates/${encodeURIComponent(note.staffline_candidate_id)}/notes`);
    const match = (stored ?? []).find((r) => r.note_text === note.body && r.author === note.logged_by && !claimed.has(String(r.id)));
    return match ? String(match.id) : null;
  }

  /** Runs `work` with the write gate closed, so no other note is sent while StaffLine is in doubt. */
  private async whileClosed<T>(work: () => Promise<T>): Promise<T> {
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    this.gate = gate;
    try {
      return await work();
    } finally {
      if (this.gate === gate) this.gate = null;
      open();
    }
  }

  async run(): Promise<void> {
    const notes = currentNotes(this.config.exportFile);
    this.deleted = new Set((await deletedCandidates(this.client)).keys());
    // A few notes in flight at a time: well inside StaffLine's quota, and a long export stays quick.
    const queue = [...notes];
    let failure: unknown = null;
    const worker = async () => {
      while (queue.length && failure === null) {
        const note = queue.shift()!;
        try {
          await this.settle(note);
        } catch (err) {
          failure ??= err;
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    this.writeResult(notes);
    if (failure) throw failure;
  }

  /** Brings one note to a final state: written once, or refused with StaffLine's reason. */
  private async settle(note: ExportRow): Promise<void> {
    const had = this.ledger[note.note_ref];
    if (had?.state === "written" || had?.state === "refused") return;
    if (had?.state === "sending") {
      const found = await this.findStored(note);
      if (found) return this.set(note.note_ref, { state: "written", noteId: found });
    }
    if (this.deleted.has(note.staffline_candidate_id)) return this.set(note.note_ref, { state: "refused", reason: "candidate_deleted" });

    // A "sending" entry left by an earlier run was an attempt whose outcome we never learnt.
    for (let attempt = had?.state === "sending" ? 2 : 1; ; attempt++) {
      while (this.gate) await this.gate;
      this.set(note.note_ref, { state: "sending" });
      const result = attempt === 1 ? await createNote(this.client, note) : await resendNote(this.client, note);
      if (result.kind === "stored") return this.set(note.note_ref, { state: "written", noteId: result.id });
      if (result.kind === "refused") {
        if (result.errors.some((e) => e.field === "candidate_id") && !this.deleted.has(note.staffline_candidate_id) && !this.reread) {
          // Deleted since we read the tombstones? Read them again (once a run) before calling it unknown.
          this.reread = true;
          this.deleted = new Set((await deletedCandidates(this.client)).keys());
        }
        return this.set(note.note_ref, { state: "refused", reason: reasonOf(result.errors, this.deleted, note) });
      }
      // No usable answer: StaffLine may have stored the note. Look before writing again.
      console.error(`note ${note.note_ref}: ${result.detail}; checking whether StaffLine stored it`);
      const found = await this.whileClosed(() => this.findStored(note));
      if (found) return this.set(note.note_ref, { state: "written", noteId: found });
      if (attempt >= 3) throw new Error(`note ${note.note_ref} keeps failing: ${result.detail}`);
    }
  }

  private writeResult(notes: ExportRow[]): void {
    const rows: ResultRow[] = [];
    for (const note of notes) {
      const e = this.ledger[note.note_ref];
      if (!e || e.state === "sending") continue;
      rows.push({
        note_ref: note.note_ref,
        candidate_id: note.staffline_candidate_id,
        written: e.state === "written",
        staffline_note_id: e.state === "written" ? e.noteId : null,
        reason: e.state === "refused" ? e.reason : null,
      });
    }
    writeJson(this.config.outputDir, "note_import.json", rows);
    const written = rows.filter((r) => r.written).length;
    console.error(`import-notes: ${written} written, ${rows.length - written} refused, ${notes.length - rows.length} left for the next run`);
  }
}

/** `import-notes`: every CRM note into StaffLine once, and note_import.json telling what happened. */
export async function importNotes(config: Config, client: Staffline): Promise<void> {
  await new Importer(config, client).run();
}
