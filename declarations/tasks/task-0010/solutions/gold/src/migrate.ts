import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Config } from "./config.ts";
import { readJson, writeJson } from "./files.ts";
import type { Staffline } from "./staffline.ts";

const BULK = "/svc/rpc/bulkCreateNotes";
const STATE = ".migration-state.json";
const REPORT = "import_report.json";
/** What the docs allow per call; StaffLine refuses far smaller batches with 413, so we halve from here. */
const DOCUMENTED_MAX = 50;

/** One row of the TallyHire export. */
interface ExportRow {
  legacy_id: string;
  candidate_id: string;
  recruiter: string;
  text: string;
}

type Reason = "candidate_not_found" | "text_missing" | "text_too_long";

/** What we know of a row, kept under OUTPUT_DIR across runs. */
type Entry = { state: "written"; id: string } | { state: "rejected"; reason: Reason };

interface ReportRow {
  legacy_id: string;
  candidate_id: string;
  status: "written" | "rejected" | "failed";
  staffline_note_id: string | null;
  reason: string | null;
}

interface FieldError {
  field?: string;
  message?: string;
}

interface ItemResult {
  index?: number;
  status?: number;
  id?: unknown;
  errors?: FieldError[];
}

const item = (r: ExportRow) => ({ candidate_id: r.candidate_id, note_text: r.text, author: r.recruiter });
const contentKey = (candidate: unknown, text: unknown, author: unknown) => JSON.stringify([candidate, text, author]);

/** A refusal as the ticket's reason, candidate problems first. */
function reasonOf(errors: FieldError[], row: ExportRow): Reason {
  if (errors.some((e) => e.field === "candidate_id")) return "candidate_not_found";
  const text = errors.find((e) => e.field === "note_text");
  if (text) return /required/.test(String(text.message)) ? "text_missing" : "text_too_long";
  throw new Error(`StaffLine refused ${row.legacy_id} for a reason this job does not know: ${JSON.stringify(errors)}`);
}

/** The request_id of a batch: made from its content, so the same batch always carries the same one. */
const requestId = (rows: ExportRow[], pass: string) =>
  `th-${pass}-${createHash("sha256")
    .update(JSON.stringify(rows.map((r) => [r.legacy_id, item(r)])))
    .digest("hex")
    .slice(0, 32)}`;

class Migration {
  private readonly config: Config;
  private readonly client: Staffline;
  private readonly state: Record<string, Entry>;
  /** The largest batch StaffLine has taken this run, and the cap we send at. */
  private size = DOCUMENTED_MAX;
  /** Ids the last 207s claimed, by legacy_id, not yet seen in StaffLine. */
  private claimed = new Map<string, string>();
  private failed = new Map<string, string>();

  constructor(config: Config, client: Staffline) {
    this.config = config;
    this.client = client;
    this.state = readJson<Record<string, Entry>>(config.outputDir, STATE, {});
  }

  private save(): void {
    writeJson(this.config.outputDir, STATE, this.state);
  }

  /** The notes StaffLine holds on these candidates, by candidate id (null: StaffLine has no such candidate). */
  private async storedNotes(candidates: Iterable<string>): Promise<Map<string, Record<string, unknown>[] | null>> {
    const out = new Map<string, Record<string, unknown>[] | null>();
    for (const c of new Set(candidates)) out.set(c, await this.client.listAll(`/svc/candidates/${encodeURIComponent(c)}/notes`));
    return out;
  }

  /**
   * Settles rows against what StaffLine holds: a row whose note (same
   * candidate, text and author) is there, and not taken by another row, is
   * written. The id we were told or remember wins when it is among them.
   */
  private reconcile(rows: ExportRow[], stored: Map<string, Record<string, unknown>[] | null>, prefer: Map<string, string>): ExportRow[] {
    const taken = new Set(Object.values(this.state).flatMap((e) => (e.state === "written" ? [e.id] : [])));
    const pool = new Map<string, string[]>();
    for (const notes of stored.values())
      for (const n of notes ?? []) {
        const k = contentKey(n.candidate_id, n.note_text, n.author);
        pool.set(k, [...(pool.get(k) ?? []), String(n.id)]);
      }
    const missing: ExportRow[] = [];
    for (const r of rows) {
      const ids = (pool.get(contentKey(r.candidate_id, r.text, r.recruiter)) ?? []).filter((id) => !taken.has(id));
      const want = prefer.get(r.legacy_id);
      const id = want && ids.includes(want) ? want : ids[0];
      if (id) {
        taken.add(id);
        this.state[r.legacy_id] = { state: "written", id };
      } else missing.push(r);
    }
    this.save();
    return missing;
  }

  /** Sends rows in batches StaffLine takes; collects the ids its 207s claim and the refusals. */
  private async send(rows: ExportRow[], pass: string): Promise<void> {
    const queue = [...rows];
    while (queue.length) {
      const batch = queue.slice(0, this.size);
      const { status, body } = await this.client.write(BULK, { request_id: requestId(batch, pass), notes: batch.map(item) });
      if (status === 413 && batch.length > 1) {
        // StaffLine takes fewer items per call than its docs say: halve and re-batch.
        this.size = Math.max(1, Math.floor(batch.length / 2));
        console.error(`bulkCreateNotes refused ${batch.length} items (413); sending ${this.size} at a time`);
        continue;
      }
      if (status !== 207 || !Array.isArray(body.results)) throw new Error(`bulkCreateNotes answered ${status}: ${JSON.stringify(body)}`);
      queue.splice(0, batch.length);
      const results = body.results as ItemResult[];
      batch.forEach((row, i) => {
        const res = results.find((x) => x.index === i) ?? results[i];
        if (res?.status === 201 && typeof res.id === "string") this.claimed.set(row.legacy_id, res.id);
        else if (res && Array.isArray(res.errors)) this.state[row.legacy_id] = { state: "rejected", reason: reasonOf(res.errors, row) };
        else this.failed.set(row.legacy_id, `bulkCreateNotes gave no usable result: ${JSON.stringify(res)}`);
      });
      this.save();
    }
  }

  /** Rows whose claimed note StaffLine does not hold: read back, and settle the ones that landed. */
  private async unconfirmed(rows: ExportRow[]): Promise<ExportRow[]> {
    const mine = rows.filter((r) => this.claimed.has(r.legacy_id));
    if (!mine.length) return [];
    const stored = await this.storedNotes(mine.map((r) => r.candidate_id));
    const missing = this.reconcile(mine, stored, this.claimed);
    for (const r of mine) this.claimed.delete(r.legacy_id);
    return missing;
  }

  async run(): Promise<void> {
    const doc = JSON.parse(readFileSync(this.config.exportFile, "utf8")) as { notes: ExportRow[] };
    const rows = [...doc.notes].sort((a, b) => (a.legacy_id < b.legacy_id ? -1 : a.legacy_id > b.legacy_id ? 1 : 0));

    // What StaffLine already holds decides, not our memory of it: an earlier run may have
    // written notes it never recorded, and request_ids are only remembered for 60 writes.
    const open = rows.filter((r) => this.state[r.legacy_id]?.state !== "rejected");
    const stored = await this.storedNotes(open.map((r) => r.candidate_id));
    const remembered = new Map(Object.entries(this.state).flatMap(([k, e]) => (e.state === "written" ? [[k, e.id] as [string, string]] : [])));
    for (const r of open) delete this.state[r.legacy_id];
    const pending = this.reconcile(open, stored, remembered);

    await this.send(pending, "a");
    // A 207 can report a note created that StaffLine never stored: read every claim back,
    // send the missing ones once more as a new batch, and read those back too.
    const lost = await this.unconfirmed(pending);
    if (lost.length) {
      console.error(`${lost.length} notes reported created are not in StaffLine: ${lost.map((r) => r.legacy_id).join(", ")}; sending them again`);
      await this.send(lost, "b");
      for (const r of await this.unconfirmed(lost)) this.failed.set(r.legacy_id, "StaffLine reported the note created twice, but it is not there");
    }
    this.report(rows);
  }

  private report(rows: ExportRow[]): void {
    const out: ReportRow[] = rows.map((r) => {
      const e = this.state[r.legacy_id];
      const base = { legacy_id: r.legacy_id, candidate_id: r.candidate_id };
      if (e?.state === "written") return { ...base, status: "written", staffline_note_id: e.id, reason: null };
      if (e?.state === "rejected") return { ...base, status: "rejected", staffline_note_id: null, reason: e.reason };
      return { ...base, status: "failed", staffline_note_id: null, reason: this.failed.get(r.legacy_id) ?? "not settled" };
    });
    writeJson(this.config.outputDir, REPORT, out);
    const count = (s: string) => out.filter((r) => r.status === s).length;
    console.error(`import: ${count("written")} written, ${count("rejected")} rejected, ${count("failed")} failed`);
  }
}

/** `import`: every TallyHire note into StaffLine once, through the bulk endpoint, and a true report. */
export async function migrate(config: Config, client: Staffline): Promise<void> {
  await new Migration(config, client).run();
}
