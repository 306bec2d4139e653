import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { bookField, readExport } from "./csv.ts";
import { exportFile } from "./export.ts";
import { PlaceMintClient } from "./placemint.ts";

const HEADER = ["placement_id", "adjustment_id", "agency_fee_bps", "agreed_by", "reason"];

interface Adjustment {
  adjustment_id: string;
  placement_id: string;
  agency_fee_bps: string;
  agreed_by: string;
  reason: string;
  recorded: string;
}

/**
 * `Recorded` as the export writes it (its column reference): `DD/MM/YYYY HH:MM:SS`, day first, in
 * UTC, unlike the API's ISO timestamps. Anything else stops the job rather than mis-order a fee.
 */
function recordedMs(text: string): number {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) throw new Error(`Recorded "${text}" is not DD/MM/YYYY HH:MM:SS`);
  return Date.UTC(Number(m[3]), Number(m[2]) - 1, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]));
}

/** The newer of two adjustments: recorded later, or at the same instant the higher id. */
function newer(a: Adjustment, b: Adjustment): Adjustment {
  const ta = recordedMs(a.recorded);
  const tb = recordedMs(b.recorded);
  if (ta !== tb) return ta > tb ? a : b;
  return a.adjustment_id > b.adjustment_id ? a : b;
}

/** `book`: the fee in force per placement from the `fee_corrections` export, as the fee book. */
async function book(): Promise<void> {
  const config = loadConfig();
  const client = new PlaceMintClient(config);
  const rows = readExport(await exportFile(client, "fee_corrections"));
  const inForce = new Map<string, Adjustment>();
  for (const r of rows) {
    const adj: Adjustment = {
      adjustment_id: r["Adjustment ID"],
      placement_id: r["Placement ID"],
      agency_fee_bps: r["Agency fee (bps)"],
      agreed_by: r["Agreed by"],
      reason: r.Reason,
      recorded: r.Recorded,
    };
    const held = inForce.get(adj.placement_id);
    inForce.set(adj.placement_id, held ? newer(held, adj) : adj);
  }
  const lines = [...inForce.values()]
    .sort((a, b) => (a.placement_id < b.placement_id ? -1 : 1))
    .map((a) => [a.placement_id, a.adjustment_id, a.agency_fee_bps, a.agreed_by, a.reason].map(bookField).join(","));
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "fee_book.csv"), [HEADER.join(","), ...lines].map((l) => `${l}\n`).join(""));
  console.error(`fee book: ${lines.length} placements from ${rows.length} adjustments`);
}

const command = process.argv[2];
if (command !== "book") {
  console.error("usage: node src/main.ts book");
  process.exit(2);
}
book().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
