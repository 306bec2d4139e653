import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { PlaceMintClient, UnknownOutcome } from "./placemint.ts";
import { chaseBody, findLastContacts, inScope, isStalled, type Note, type Placement } from "./sweep.ts";

const AUTHOR = "Delivery desk";

interface FullNote extends Note {
  body: string;
  author: string | null;
}

/**
 * Files one chase note. A write whose answer was lost is settled by reading the feed back: the
 * note is there (take its id) or it is not (send it again, once more at most per loss).
 */
async function fileChase(client: PlaceMintClient, placementId: string, body: string): Promise<string> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const created = await client.request<Note>("POST", "/v2/notes", { placement_id: placementId, body, author: AUTHOR, visibility: "agency" });
      return created.id;
    } catch (err) {
      if (!(err instanceof UnknownOutcome)) throw err;
      console.error(`${err.message}; reading the feed back`);
      const landed = (await client.listAll<FullNote>("/v2/notes")).find((n) => !n.deleted && n.placement_id === placementId && n.body === body && n.author === AUTHOR);
      if (landed) return landed.id;
    }
  }
  throw new Error(`could not file the chase note on ${placementId}`);
}

async function sweep(): Promise<void> {
  const config = loadConfig();
  const client = new PlaceMintClient(config);
  const placements = (await client.listAll<Placement>("/v2/placements")).filter(inScope);
  placements.sort((a, b) => a.id.localeCompare(b.id));
  const last = findLastContacts(await client.listAll<Note>("/v2/notes"));
  const rows = [];
  for (const p of placements) {
    const note = last.get(p.id) ?? null;
    const stalled = isStalled(note);
    const chaseId = stalled ? await fileChase(client, p.id, chaseBody(note)) : null;
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
