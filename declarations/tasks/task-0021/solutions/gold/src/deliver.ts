import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { loadManifest, mediaTypeOf, readScorecardFile, type Scorecard, sha256 } from "./files.ts";
import { type ApiRecord, messageOf, type TalentLoop } from "./talentloop.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Reason = "candidate_missing" | "candidate_deleted" | "checksum_mismatch" | "unsupported_type" | "file_too_large";

interface Delivered {
  scorecard_id: string;
  candidate_id: string;
  attachment_id: string;
  sha256: string;
  note_id: string;
}

interface Quarantined {
  scorecard_id: string;
  candidate_id: string | null;
  reason: Reason;
  detail: string;
}

class Quarantine {
  readonly row: Quarantined;
  constructor(card: Scorecard, candidateId: string | null, reason: Reason, detail: string) {
    this.row = { scorecard_id: card.scorecard_id, candidate_id: candidateId, reason, detail };
  }
}

const emailKey = (v: unknown) =>
  String(v ?? "")
    .trim()
    .toLowerCase();

export const noteBody = (c: Scorecard) => `${c.scorecard_id} (${c.stage}, ${c.recommendation}): ${c.summary}`;
export const noteAuthor = (c: Scorecard) => c.interviewer.trim().split(/\s+/)[0];

/** What TalentLoop says about a candidate id: live, deleted (410 Gone) or never there (404). */
async function candidateState(tl: TalentLoop, id: string): Promise<{ state: "live" | "deleted" | "missing"; detail: string }> {
  const r = await tl.get(`/v1/candidates/${encodeURIComponent(id)}`);
  if (r.status === 200) return { state: "live", detail: "" };
  if (r.status === 410) return { state: "deleted", detail: `TalentLoop: ${messageOf(r)}` };
  if (r.status === 404) return { state: "missing", detail: `TalentLoop: ${messageOf(r)}` };
  throw new Error(`GET /v1/candidates/${id} answered ${r.status}: ${messageOf(r)}`);
}

export async function deliver(tl: TalentLoop, config: Config): Promise<void> {
  const cards = [...loadManifest()].sort((a, b) => (a.scorecard_id < b.scorecard_id ? -1 : a.scorecard_id > b.scorecard_id ? 1 : 0));
  const delivered: Delivered[] = [];
  const quarantined: Quarantined[] = [];
  let byEmail: Map<string, string[]> | null = null;
  let failure: Error | null = null;
  // Files TalentLoop refused, by scorecard and digest: that refusal is final for the batch, so a
  // rerun quarantines them again without sending them. A re-exported file has another digest.
  const refusalsPath = join(config.outputDir, "refusals.json");
  const refusals: Record<string, Quarantined> = existsSync(refusalsPath) ? JSON.parse(readFileSync(refusalsPath, "utf8")) : {};

  for (const card of cards) {
    try {
      delivered.push(await deliverOne(card));
    } catch (err) {
      if (err instanceof Quarantine) quarantined.push(err.row);
      else {
        failure = err as Error;
        break;
      }
    }
  }
  writeReport(config, "refusals.json", refusals);
  writeReport(config, "attachment_report.json", delivered);
  writeReport(config, "quarantine.json", quarantined);
  if (failure) throw failure;

  async function candidateFor(card: Scorecard): Promise<string> {
    const id = card.talentloop_candidate_id?.trim();
    if (id) {
      const s = await candidateState(tl, id);
      if (s.state === "missing") throw new Quarantine(card, id, "candidate_missing", s.detail);
      if (s.state === "deleted") throw new Quarantine(card, id, "candidate_deleted", s.detail);
      return id;
    }
    byEmail ??= await emailIndex();
    const found = byEmail.get(emailKey(card.candidate_email)) ?? [];
    if (!found.length) throw new Quarantine(card, null, "candidate_missing", `no live TalentLoop candidate has the email ${card.candidate_email.trim()}`);
    return found[0];
  }

  async function emailIndex(): Promise<Map<string, string[]>> {
    const index = new Map<string, string[]>();
    for (const c of await tl.listAll("/v1/candidates")) {
      if (c.deleted === true) continue;
      const k = emailKey(c.email);
      index.set(k, [...(index.get(k) ?? []), c.id]);
    }
    return index;
  }

  async function deliverOne(card: Scorecard): Promise<Delivered> {
    const candidate = await candidateFor(card);
    const bytes = readScorecardFile(card);
    const digest = sha256(bytes);
    if (digest !== card.sha256.trim().toLowerCase())
      throw new Quarantine(card, candidate, "checksum_mismatch", `the file has SHA-256 ${digest} (${bytes.byteLength} bytes); the manifest says ${card.sha256} (${card.size_bytes} bytes)`);
    const refusedBefore = refusals[`${card.scorecard_id}:${digest}`];
    if (refusedBefore) throw new Quarantine(card, candidate, refusedBefore.reason, refusedBefore.detail);
    let attachment: ApiRecord;
    try {
      attachment = await ensureAttachment(card, candidate, bytes, digest);
    } catch (err) {
      if (err instanceof Quarantine && (err.row.reason === "unsupported_type" || err.row.reason === "file_too_large")) refusals[`${card.scorecard_id}:${digest}`] = err.row;
      throw err;
    }
    const note = await ensureNote(card, candidate);
    return { scorecard_id: card.scorecard_id, candidate_id: candidate, attachment_id: attachment.id, sha256: String(attachment.sha256), note_id: note.id };
  }

  /** The scorecard's attachment: the one already on the candidate (same bytes), or a new upload. */
  async function ensureAttachment(card: Scorecard, candidate: string, bytes: Uint8Array, digest: string): Promise<ApiRecord> {
    const path = `/v1/candidates/${encodeURIComponent(candidate)}/attachments`;
    const onCandidate = async () => (await tl.listAll(path)).find((a) => String(a.sha256).toLowerCase() === digest);
    const had = await onCandidate();
    if (had) return had;
    const type = mediaTypeOf(bytes, card.content_type);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const form = new FormData();
      form.append("kind", "other");
      form.append("file", new Blob([bytes], { type }), card.file);
      const r = await tl.send("POST", path, form);
      if (r.status === 200 || r.status === 201) {
        if (String(r.body?.sha256).toLowerCase() !== digest) throw new Error(`${card.scorecard_id}: TalentLoop received other bytes (sha256 ${r.body?.sha256})`);
        return r.body as ApiRecord;
      }
      if (r.status === 415) throw new Quarantine(card, candidate, "unsupported_type", `TalentLoop: ${messageOf(r)}`);
      if (r.status === 413) throw new Quarantine(card, candidate, "file_too_large", `TalentLoop: ${messageOf(r)}`);
      if (r.status === 404) {
        const s = await candidateState(tl, candidate);
        if (s.state !== "live") throw new Quarantine(card, candidate, s.state === "deleted" ? "candidate_deleted" : "candidate_missing", s.detail);
      }
      if (r.status !== 0 && r.status < 500) throw new Error(`${card.scorecard_id}: upload answered ${r.status}: ${messageOf(r)}`);
      // No answer, or a server error: the upload may have landed. Look before sending it again.
      await sleep(200 * attempt);
      const landed = await onCandidate();
      if (landed) return landed;
    }
    throw new Error(`${card.scorecard_id}: TalentLoop kept failing the upload`);
  }

  /** The scorecard's note: the one already on the candidate (same text), or a new one. */
  async function ensureNote(card: Scorecard, candidate: string): Promise<ApiRecord> {
    const path = `/v1/candidates/${encodeURIComponent(candidate)}/notes`;
    const body = noteBody(card);
    const onCandidate = async () => (await tl.listAll(path)).find((n) => n.body === body);
    const had = await onCandidate();
    if (had) return had;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const r = await tl.send("POST", path, { body, author: noteAuthor(card) });
      if (r.status === 200 || r.status === 201) return r.body as ApiRecord;
      if (r.status === 404) {
        const s = await candidateState(tl, candidate);
        if (s.state !== "live") throw new Error(`${card.scorecard_id}: candidate ${candidate} went away after its file was attached`);
      }
      if (r.status !== 0 && r.status < 500) throw new Error(`${card.scorecard_id}: note answered ${r.status}: ${messageOf(r)}`);
      await sleep(200 * attempt);
      const landed = await onCandidate();
      if (landed) return landed;
    }
    throw new Error(`${card.scorecard_id}: TalentLoop kept failing the note`);
  }
}

function writeReport(config: Config, name: string, rows: unknown): void {
  mkdirSync(config.outputDir, { recursive: true });
  const path = join(config.outputDir, name);
  writeFileSync(`${path}.tmp`, JSON.stringify(rows, null, 2) + "\n");
  renameSync(`${path}.tmp`, path);
}
