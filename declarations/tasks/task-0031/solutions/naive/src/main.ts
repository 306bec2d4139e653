import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

/** The close as Rahul's notes describe it, with PlaceMint's export read as its documentation says. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function close(): Promise<void> {
  const config = loadConfig();
  // Tallybook: plain comma-separated, one line per timesheet; every line counts.
  const hours = new Map<string, number>();
  const lines = readFileSync(join(import.meta.dirname, "..", "input", "tallybook-q1-timesheets.csv"), "utf8")
    .trim()
    .split("\r\n")
    .slice(1);
  for (const line of lines) {
    const cols = line.split(",");
    const h = Number(cols[3]);
    if (Number.isFinite(h)) hours.set(cols[1], (hours.get(cols[1]) ?? 0) + h);
  }

  const client = new PlaceMintClient(config);
  const job = await client.request<{ id: string; status: string }>("POST", "/v2/exports", { resource: "fee_statements" });
  for (;;) {
    const s = await client.request<{ status: string }>("GET", `/v2/exports/${job.id}`);
    if (s.status === "ready") break;
    await sleep(200);
  }
  const text = await client.request<string>("GET", `/v2/exports/${job.id}/file`);
  const [head, ...rows] = text
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  const cols = head.split(";");
  const book = new Map(rows.map((r) => Object.fromEntries(r.split(";").map((v, i) => [cols[i], v]))).map((r) => [r["Placement ID"], r]));

  const out = ["placement_id,currency,approved_hours,hourly_bill_rate,agency_fee_bps,fee_cents,outcome,note_id"];
  for (const [id, h] of [...hours].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const p = book.get(id);
    if (!p) {
      out.push(`${id},,${h},,,,not_in_book,`);
      continue;
    }
    const rate = Number(p["Hourly bill rate (cents)"]);
    const bps = Number(p["Agency fee (bps)"]);
    const fee = Math.round((h * rate * bps) / 10000);
    const body = `Q1 2025 agency fee: ${p.Currency} ${(fee / 100).toFixed(2)} (fee-close 2025-Q1)`;
    const note = await client.request<{ id: string }>("POST", "/v2/notes", { placement_id: id, body, author: "Finance close", visibility: "agency" });
    out.push([id, p.Currency, h, rate, bps, fee, "fee_noted", note.id].join(","));
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "fee_close.csv"), `${out.join("\n")}\n`);
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
