import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";
import { type Application, type Link, noteText, type Placement, roster } from "./roster.ts";
import { Staffline } from "./staffline.ts";

/** The reconcile as the vendors' documentation describes their APIs. */
async function reconcile(): Promise<void> {
  const config = loadConfig();
  const [, ...lines] = readFileSync(join(import.meta.dirname, "..", "input", "bridge.csv"), "utf8")
    .trim()
    .split("\n");
  const links: Link[] = lines.map((l) => {
    const [application_id, placement_id] = l.split(",");
    return { application_id, placement_id };
  });
  const sl = new Staffline(config.staffline);
  const pm = new PlaceMintClient(config.placemint);
  // Applications always include their pipeline stage (StaffLine changelog).
  const apps = new Map<string, Application>();
  for (const a of await sl.listAll("/svc/applications")) apps.set(String(a.id), { id: String(a.id), candidate_id: String(a.candidate_id), stage: String(a.stage) });
  const deletedApps = new Set<string>();
  const deletedCandidates = new Set<string>();
  for (const t of await sl.listAll("/svc/tombstones")) {
    if (t.object_type === "application") deletedApps.add(String(t.id));
    if (t.object_type === "candidate") deletedCandidates.add(String(t.id));
  }
  const placements = new Map((await pm.listAll<Placement>("/v2/placements")).map((p) => [p.id, p]));

  const rows = roster(links, apps, deletedApps, deletedCandidates, placements);
  for (const row of rows) {
    if (row.correction === "staffline_note") {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const out = await sl.write("/svc/rpc/createNote", { candidate_id: row.candidate_id, note_text: noteText(row), author: "Roster sync" });
        if (out.kind === "answered") break;
      }
    }
    if (row.correction === "placemint_confirm") await pm.request("PATCH", `/v2/placements/${row.placement_id}`, { status: "confirmed" });
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
