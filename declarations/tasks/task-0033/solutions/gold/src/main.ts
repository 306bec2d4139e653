import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type Activity, type Link, type Pending, type PlaceMintNote, pendingCopies, SYNC } from "./notes.ts";
import { PlaceMintClient } from "./placemint.ts";
import { RecruitOS } from "./recruitos.ts";

const command = process.argv[2];
if (command !== "sync") {
  console.error("usage: node src/main.ts sync");
  process.exit(2);
}
const config = loadConfig();
const placemint = new PlaceMintClient(config.placemint);
const recruitos = new RecruitOS(config.recruitos);

/**
 * The links sheet: plain comma-separated ids with a header row, typed by hand. Ids are read as
 * the systems write them (no spaces; PlaceMint's placement ids are lower case), and a link
 * entered twice is one link.
 */
function readLinks(): Link[] {
  const [header, ...lines] = readFileSync(join(import.meta.dirname, "..", "input", "links.csv"), "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim());
  const cols = header.split(",").map((c) => c.trim());
  const links = new Map<string, Link>();
  for (const line of lines) {
    const cells = line.split(",").map((c) => c.trim());
    const at = (name: string) => cells[cols.indexOf(name)] ?? "";
    const link = { candidate_id: at("candidate_id"), placement_id: at("placement_id").toLowerCase() };
    links.set(`${link.candidate_id} ${link.placement_id}`, link);
  }
  return [...links.values()];
}

async function timeline(candidateId: string): Promise<Activity[]> {
  return recruitos.listAll(`/api/v3/candidates/${encodeURIComponent(candidateId)}/activities`);
}

/**
 * Logs a copy on RecruitOS. The write carries no idempotency key, so a lost answer is settled by
 * reading the timeline back before sending it again.
 */
async function logCopy(p: Pending): Promise<string> {
  const path = `/api/v3/candidates/${encodeURIComponent(p.link.candidate_id)}/activities`;
  for (let attempt = 1; attempt <= 4; attempt++) {
    const res = await recruitos.call("POST", path, { body: { type: "note", summary: p.text, loggedBy: SYNC }, once: true });
    if (res.status === 200 || res.status === 201) return String(res.body.id);
    if (res.status !== 0 && res.status < 500) throw new Error(`POST ${path}: ${res.status} ${res.body?.errorMessage ?? ""}`);
    const landed = (await timeline(p.link.candidate_id)).find((a) => a.type === "note" && a.loggedBy === SYNC && a.summary === p.text);
    if (landed) return String(landed.id);
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
  throw new Error(`POST ${path}: the copy of ${p.source} did not land`);
}

async function noteCopy(p: Pending): Promise<string> {
  const note = await placemint.request<{ id: string }>(
    "POST",
    "/v2/notes",
    { placement_id: p.link.placement_id, body: p.text, author: SYNC, visibility: "agency" },
    { "Idempotency-Key": `northgate-copy-${p.source}` },
  );
  return String(note.id);
}

async function main(): Promise<void> {
  const links = readLinks();
  const placements = new Map((await placemint.listAll<{ id: string; deleted?: boolean }>("/v2/placements")).map((p) => [p.id, p]));
  const notes = await placemint.listAll<PlaceMintNote>("/v2/notes");
  const pending: Pending[] = [];
  for (const link of links) {
    const placement = placements.get(link.placement_id);
    if (!placement || placement.deleted) {
      console.error(`skipping ${link.candidate_id} -> ${link.placement_id}: PlaceMint has no such placement`);
      continue;
    }
    pending.push(...pendingCopies(link, notes, await timeline(link.candidate_id)));
  }
  const rows = [];
  for (const p of pending) {
    const copyId = p.direction === "placemint_to_recruitos" ? await logCopy(p) : await noteCopy(p);
    rows.push({ direction: p.direction, candidate_id: p.link.candidate_id, placement_id: p.link.placement_id, source_note_id: p.source, copy_id: copyId });
  }
  rows.sort((a, b) => (a.source_note_id < b.source_note_id ? -1 : a.source_note_id > b.source_note_id ? 1 : 0));
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "copies.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.error(`sync: ${rows.length} copies written`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
