import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type Page, PlaceMintClient } from "./placemint.ts";

/** The sweep as the runbook (materials/contact-sweep-runbook.md) describes it. */
interface Placement {
  id: string;
  client_id: string;
  status: string;
  updated_at: string;
  deleted: boolean;
}
interface Note {
  id: string;
  placement_id: string;
  created_at: string;
  deleted: boolean;
}

const CUT_OFF = "2025-01-01T00:00:00Z";
const cutOff = Date.parse(CUT_OFF);

async function sweep(): Promise<void> {
  const config = loadConfig();
  const client = new PlaceMintClient(config);
  const placements: Placement[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page: Page<Placement> = await client.request("GET", `/v2/placements?limit=100&offset=${offset}`);
    placements.push(...page.results);
    offset = page.next_offset;
  }
  const booked = placements.filter((p) => !p.deleted && (p.status === "confirmed" || p.status === "active")).sort((a, b) => (a.id < b.id ? -1 : 1));

  // The feed is newest first: read until the first note older than the cut-off.
  const last = new Map<string, Note>();
  let done = false;
  for (let offset: number | null = 0; offset !== null && !done; ) {
    const page: Page<Note> = await client.request("GET", `/v2/notes?limit=100&offset=${offset}`);
    for (const n of page.results) {
      if (Date.parse(n.created_at) < cutOff) {
        done = true;
        break;
      }
      if (!n.deleted && !last.has(n.placement_id)) last.set(n.placement_id, n);
    }
    offset = page.next_offset;
  }

  const rows = [];
  for (const p of booked) {
    // A note touches its placement, so a recent updated_at means recent contact.
    const note = last.get(p.id) ?? null;
    const stalled = note === null && Date.parse(p.updated_at) < cutOff;
    let chaseId: string | null = null;
    if (stalled) {
      const created = await client.request<Note>("POST", "/v2/notes", {
        placement_id: p.id,
        body: "Chase-up: no contact on record.",
        author: "Delivery desk",
        visibility: "agency",
      });
      chaseId = created.id;
    }
    rows.push({ placement_id: p.id, client_id: p.client_id, status: p.status, last_contact_at: note?.created_at ?? null, last_note_id: note?.id ?? null, stalled, chase_note_id: chaseId });
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
