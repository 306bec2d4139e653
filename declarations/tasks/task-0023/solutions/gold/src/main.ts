import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";
import { chaseBody, findLastContacts, inScope, isStalled, type Note, type Placement } from "./sweep.ts";

interface ReportRow {
  placement_id: string;
  client_id: string;
  status: string;
  last_contact_at: string | null;
  last_note_id: string | null;
  stalled: boolean;
  chase_note_id: string | null;
}

async function sweep(): Promise<void> {
  const config = loadConfig();
  const client = new PlaceMintClient(config);
  const placements = (await client.listAll<Placement>("/v2/placements")).filter(inScope).sort((a, b) => (a.id < b.id ? -1 : 1));
  const last = findLastContacts(await client.listAll<Note>("/v2/notes"));
  const rows: ReportRow[] = [];
  for (const p of placements) {
    const note = last.get(p.id) ?? null;
    const stalled = isStalled(note);
    let chaseId: string | null = null;
    if (stalled) {
      const created = await client.request<Note>(
        "POST",
        "/v2/notes",
        { placement_id: p.id, body: chaseBody(note), author: "Delivery desk", visibility: "agency" },
        { "Idempotency-Key": `corvane-chase-${p.id}-${note?.id ?? "none"}` },
      );
      chaseId = created.id;
    }
    rows.push({
      placement_id: p.id,
      client_id: p.client_id,
      status: p.status,
      last_contact_at: note?.created_at ?? null,
      last_note_id: note?.id ?? null,
      stalled,
      chase_note_id: chaseId,
    });
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "chase_report.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.error(`${rows.length} placements in scope, ${rows.filter((r) => r.stalled).length} stalled, ${rows.filter((r) => r.chase_note_id).length} chased`);
}

const command = process.argv[2];
if (command !== "sweep") {
  console.error("usage: node src/main.ts sweep");
  process.exit(2);
}
sweep().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
