// Panelwise scorecards into TalentLoop. Command: deliver.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ApiRecord, TalentLoopApi } from "./api.ts";

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

const command = process.argv[2];
if (command !== "deliver") {
  console.error("usage: node src/main.ts deliver");
  process.exit(2);
}

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`missing ${name}`);
  return v;
};
const api = new TalentLoopApi(env("TALENTLOOP_BASE_URL"), env("TALENTLOOP_CLIENT_ID"), env("TALENTLOOP_CLIENT_SECRET"));
const outputDir = process.env.OUTPUT_DIR ?? "output";
const dir = join("input", "scorecards");
const cards = (JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { scorecards: Scorecard[] }).scorecards.sort((a, b) => (a.scorecard_id < b.scorecard_id ? -1 : 1));

function sniff(bytes: Uint8Array, recorded: string): string {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return "application/pdf";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  return recorded;
}

// Candidates: the docs say lists keep deleted records with `deleted: true`, so one crawl tells
// live, deleted and unknown candidates apart.
const candidates = await api.listAll("/v1/candidates");
const byId = new Map(candidates.map((c) => [c.id, c]));
const byEmail = new Map<string, ApiRecord>();
for (const c of candidates) if (c.deleted !== true) byEmail.set(String(c.email).trim().toLowerCase(), c);

const delivered: unknown[] = [];
const quarantined: unknown[] = [];
const hold = (card: Scorecard, candidate: string | null, reason: string, detail: string) => quarantined.push({ scorecard_id: card.scorecard_id, candidate_id: candidate, reason, detail });

for (const card of cards) {
  let candidate: string | null = null;
  if (card.talentloop_candidate_id) {
    const c = byId.get(card.talentloop_candidate_id);
    if (!c) {
      hold(card, card.talentloop_candidate_id, "candidate_missing", `TalentLoop has no candidate ${card.talentloop_candidate_id}`);
      continue;
    }
    if (c.deleted === true) {
      hold(card, c.id, "candidate_deleted", `candidate ${c.id} was deleted`);
      continue;
    }
    candidate = c.id;
  } else {
    const c = byEmail.get(card.candidate_email.trim().toLowerCase());
    if (!c) {
      hold(card, null, "candidate_missing", `no candidate has the email ${card.candidate_email.trim()}`);
      continue;
    }
    candidate = c.id;
  }
  const bytes = readFileSync(join(dir, "files", card.file));
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (sha !== card.sha256) {
    hold(card, candidate, "checksum_mismatch", `file SHA-256 ${sha} is not the manifest's ${card.sha256}`);
    continue;
  }
  // The docs: "compare them with the file you sent". A file already there is not sent again.
  const attPath = `/v1/candidates/${candidate}/attachments`;
  let attachment = (await api.listAll(attPath)).find((a) => a.sha256 === sha);
  if (!attachment) {
    const form = new FormData();
    form.append("kind", "other");
    form.append("file", new Blob([bytes], { type: sniff(bytes, card.content_type) }), card.file);
    const r = await api.call("POST", attPath, form);
    if (r.status === 415) {
      hold(card, candidate, "unsupported_type", r.body?.error?.message ?? "type not accepted");
      continue;
    }
    if (r.status === 413) {
      hold(card, candidate, "file_too_large", r.body?.error?.message ?? "file too large");
      continue;
    }
    if (r.status !== 201) throw new Error(`upload of ${card.scorecard_id} answered ${r.status}`);
    attachment = r.body as ApiRecord;
  }
  const body = `${card.scorecard_id} (${card.stage}, ${card.recommendation}): ${card.summary}`;
  const notePath = `/v1/candidates/${candidate}/notes`;
  let note = (await api.listAll(notePath)).find((n) => n.body === body);
  if (!note) {
    const r = await api.call("POST", notePath, { body, author: card.interviewer.split(" ")[0] });
    if (r.status !== 201) throw new Error(`note of ${card.scorecard_id} answered ${r.status}`);
    note = r.body as ApiRecord;
  }
  delivered.push({ scorecard_id: card.scorecard_id, candidate_id: candidate, attachment_id: attachment.id, sha256: attachment.sha256, note_id: note.id });
}

mkdirSync(outputDir, { recursive: true });
writeFileSync(join(outputDir, "attachment_report.json"), JSON.stringify(delivered, null, 2));
writeFileSync(join(outputDir, "quarantine.json"), JSON.stringify(quarantined, null, 2));
