import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";
import { type Application, distinctLinks, type Link, noteText, type Placement, roster } from "./roster.ts";
import { ReadFailed, Staffline } from "./staffline.ts";

const AUTHOR = "Roster sync";

/**
 * The reconcile, reading only the records the bridge names: each application and placement by
 * id. A write whose answer is lost is settled by reading the record back, never by sending it
 * blind.
 */
async function reconcile(): Promise<void> {
  const config = loadConfig();
  const [header, ...lines] = readFileSync(join(import.meta.dirname, "..", "input", "bridge.csv"), "utf8")
    .trim()
    .split(/\r?\n/);
  const cols = header.split(",");
  const links: Link[] = distinctLinks(
    lines.map((l) => {
      const v = l.split(",");
      return { application_id: v[cols.indexOf("application_id")], placement_id: v[cols.indexOf("placement_id")] };
    }),
  );
  const sl = new Staffline(config.staffline);
  const pm = new PlaceMintClient(config.placemint);

  const deletedApps = new Set<string>();
  const deletedCandidates = new Set<string>();
  for (const t of await sl.listAll("/svc/tombstones")) {
    if (t.object_type === "application") deletedApps.add(String(t.id));
    if (t.object_type === "candidate") deletedCandidates.add(String(t.id));
  }
  const apps = new Map<string, Application>();
  const placements = new Map<string, Placement>();
  for (const l of links) {
    if (!deletedApps.has(l.application_id) && !apps.has(l.application_id)) {
      try {
        const a = await sl.get(`/svc/applications/${encodeURIComponent(l.application_id)}`, { include_stage: "true" });
        apps.set(l.application_id, { id: l.application_id, candidate_id: String(a.candidate_id), stage: String(a.stage) });
      } catch (err) {
        if (!(err instanceof ReadFailed && (err.status === 404 || err.status === 410))) throw err;
      }
    }
    if (!placements.has(l.placement_id)) {
      const p = await pm.getOrNull<Placement>(`/v2/placements/${encodeURIComponent(l.placement_id)}`);
      if (p) placements.set(l.placement_id, p);
    }
  }

  const rows = roster(links, apps, deletedApps, deletedCandidates, placements);
  for (const row of rows) {
    if (row.correction === "staffline_note") {
      const text = noteText(row);
      const carries = async () => ((await sl.listChildren(`/svc/candidates/${encodeURIComponent(row.candidate_id!)}/notes`)) ?? []).some((n) => n.note_text === text && n.author === AUTHOR);
      for (let attempt = 1; !(await carries()); attempt++) {
        if (attempt > 3) throw new Error(`could not note ${row.application_id}`);
        const out = await sl.write("/svc/rpc/createNote", { candidate_id: row.candidate_id, note_text: text, author: AUTHOR });
        if (out.kind === "answered" && !(out.status === 200 && out.body.success === true)) throw new Error(`createNote refused: ${JSON.stringify(out.body)}`);
        if (out.kind === "answered") break;
      }
    }
    if (row.correction === "placemint_confirm") {
      const path = `/v2/placements/${encodeURIComponent(row.placement_id)}`;
      try {
        await pm.request("PATCH", path, { status: "confirmed" });
      } catch (err) {
        const now = await pm.getOrNull<Placement>(path);
        if (now?.status !== "confirmed") throw err;
      }
    }
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "roster.json"), `${JSON.stringify(rows, null, 2)}\n`);
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
