import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { parseCsv } from "./csv.ts";
import { feeBody, feeCents, hoursText, hundredths, inQuarter, placementId } from "./fees.ts";
import { PlaceMintClient } from "./placemint.ts";

const AUTHOR = "Finance close";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Job {
  id: string;
  status: string;
}
interface Note {
  id: string;
}

/** Requests the fee statement export, polls it until ready, and reads the file (semicolons, BOM, CRLF). */
async function feeStatements(client: PlaceMintClient): Promise<Map<string, Record<string, string>>> {
  const job = await client.request<Job>("POST", "/v2/exports", { resource: "fee_statements" });
  for (let polls = 0; ; polls++) {
    const state = await client.request<Job>("GET", `/v2/exports/${encodeURIComponent(job.id)}`);
    if (state.status === "ready") break;
    if (state.status === "expired" || polls > 30) throw new Error(`export ${job.id} is ${state.status}`);
    await sleep(200);
  }
  const text = await client.request<string>("GET", `/v2/exports/${encodeURIComponent(job.id)}/file`);
  return new Map(parseCsv(text, ";").map((r) => [r["Placement ID"], r]));
}

async function close(): Promise<void> {
  const config = loadConfig();
  const sheets = parseCsv(readFileSync(join(import.meta.dirname, "..", "input", "tallybook-q1-timesheets.csv"), "utf8"), ",");
  const hours = new Map<string, number>();
  for (const t of sheets)
    if (t.Status.trim() === "approved" && inQuarter(t["Week ending"])) {
      const id = placementId(t.Placement);
      hours.set(id, (hours.get(id) ?? 0) + hundredths(t.Hours));
    }

  const client = new PlaceMintClient(config);
  const book = await feeStatements(client);

  const lines = ["placement_id,currency,approved_hours,hourly_bill_rate,agency_fee_bps,fee_cents,outcome,note_id"];
  for (const [id, h] of [...hours].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const p = book.get(id);
    if (!p) {
      lines.push(`${id},,${hoursText(h)},,,,not_in_book,`);
      continue;
    }
    const rate = Number(p["Hourly bill rate (cents)"]);
    const bps = Number(p["Agency fee (bps)"]);
    const fee = feeCents(h, rate, bps);
    // A rerun sends every note again under the same Idempotency-Key: PlaceMint answers with the note the first run filed.
    const note = await client.request<Note>(
      "POST",
      "/v2/notes",
      { placement_id: id, body: feeBody(p.Currency, fee), author: AUTHOR, visibility: "agency" },
      { "Idempotency-Key": `halden-fee-close-2025Q1-${id}` },
    );
    const noteId = note.id;
    lines.push([id, p.Currency, hoursText(h), rate, bps, fee, "fee_noted", noteId].join(","));
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "fee_close.csv"), `${lines.join("\n")}\n`);
  console.error(`${lines.length - 1} placements with approved hours`);
}

const command = process.argv[2];
if (command !== "close") {
  console.error("usage: node src/main.ts close");
  process.exit(2);
}
close().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
