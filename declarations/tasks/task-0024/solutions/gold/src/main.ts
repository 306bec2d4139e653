import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";
import { type Application, distinctLinks, type Link, noteText, type Placement, type Row, roster } from "./roster.ts";
import { Staffline } from "./staffline.ts";

const AUTHOR = "Roster sync";

function readBridge(): Link[] {
  const [header, ...lines] = readFileSync(join(import.meta.dirname, "..", "input", "bridge.csv"), "utf8")
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  const cols = header.split(",").map((h) => h.trim());
  return distinctLinks(
    lines.map((line) => {
      const v = line.split(",");
      return { application_id: v[cols.indexOf("application_id")], placement_id: v[cols.indexOf("placement_id")] };
    }),
  );
}

/** Whether the candidate already carries this correction note (written by an earlier run, or by a write whose answer was lost). */
async function hasNote(sl: Staffline, candidateId: string, text: string): Promise<boolean> {
  const notes = await sl.listChildren(`/svc/candidates/${encodeURIComponent(candidateId)}/notes`);
  return (notes ?? []).some((n) => n.note_text === text && n.author === AUTHOR);
}

/**
 * One correction note. createNote takes no idempotency key and reports refusals inside a 200,
 * so a note is written only when the candidate does not carry it, and a write whose answer was
 * lost is settled by reading the candidate's notes before sending it again.
 */
async function noteOnce(sl: Staffline, row: Row): Promise<void> {
  const text = noteText(row);
  const candidate = row.candidate_id!;
  if (await hasNote(sl, candidate, text)) return;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const out = await sl.write("/svc/rpc/createNote", { candidate_id: candidate, note_text: text, author: AUTHOR });
    if (out.kind === "answered") {
      if (out.status === 200 && out.body.success === true) return;
      throw new Error(`createNote for ${row.application_id} was refused: ${out.status} ${JSON.stringify(out.body)}`);
    }
    if (await hasNote(sl, candidate, text)) return;
  }
  throw new Error(`could not write the correction note for ${row.application_id}`);
}

async function reconcile(): Promise<void> {
  const config = loadConfig();
  const links = readBridge();
  const sl = new Staffline(config.staffline);
  const pm = new PlaceMintClient(config.placemint);

  // StaffLine leaves an application's stage out unless asked for it (include_stage=true).
  const apps = new Map<string, Application>();
  for (const a of await sl.listAll("/svc/applications", { include_stage: "true" })) apps.set(String(a.id), { id: String(a.id), candidate_id: String(a.candidate_id), stage: String(a.stage) });
  if ([...apps.values()].some((a) => a.stage === "undefined")) throw new Error("StaffLine served applications without their stage");
  const deletedApps = new Set<string>();
  const deletedCandidates = new Set<string>();
  for (const t of await sl.listAll("/svc/tombstones")) {
    if (t.object_type === "application") deletedApps.add(String(t.id));
    if (t.object_type === "candidate") deletedCandidates.add(String(t.id));
  }
  const placements = new Map((await pm.listAll<Placement>("/v2/placements")).map((p) => [p.id, p]));

  const rows = roster(links, apps, deletedApps, deletedCandidates, placements);
  for (const row of rows) {
    if (row.correction === "staffline_note") await noteOnce(sl, row);
    if (row.correction === "placemint_confirm")
      await pm.request("PATCH", `/v2/placements/${encodeURIComponent(row.placement_id)}`, { status: "confirmed" }, { "Idempotency-Key": `keelson-confirm-${row.placement_id}` });
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "roster.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.error(`${rows.length} links, ${rows.filter((r) => r.correction).length} corrections, ${rows.filter((r) => r.excluded).length} excluded`);
}

const command = process.argv[2];
if (command !== "reconcile") {
  console.error("usage: node src/main.ts reconcile");
  process.exit(2);
}
reconcile().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
