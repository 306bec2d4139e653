// GlobalHire activity ledger -> audit periods. Compliance runs `node src/main.ts audit` once per audit cycle.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";
import { type ActivityEntry, GlobalHire, instant, utc } from "./globalhire.ts";

interface Period {
  period_id: string;
  starts_at: string;
  ends_at: string;
}

interface LedgerRow {
  period_id: string;
  activity_id: string;
  occurred_at: string;
  kind: string;
  placement_id: string | null;
  candidate_id: string | null;
  agency_id: string | null;
  branch: string;
  amount_cents: number | null;
  status: "posted" | "voided";
}

const command = process.argv[2];
if (command !== "audit") {
  console.error("usage: node src/main.ts audit");
  process.exit(2);
}

/** Writes a file whole or not at all (a partial extract must never replace the last good one). */
function writeAtomically(path: string, value: unknown): void {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

function row(period: string, e: ActivityEntry): LedgerRow {
  return {
    period_id: period,
    activity_id: e.id,
    occurred_at: utc(instant(e.occurred_at)),
    kind: e.kind,
    placement_id: e.placement_id ?? null,
    candidate_id: e.candidate_id ?? null,
    agency_id: e.agency_id ?? null,
    branch: e.branch,
    amount_cents: e.amount_cents ?? null,
    // Voided entries stay in the list with `archived: true` (the docs say they vanish).
    status: e.archived === true ? "voided" : "posted",
  };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const input = JSON.parse(readFileSync(new URL("../input/audit-periods.json", import.meta.url), "utf8")) as { periods: Period[] };
  const gh = new GlobalHire(config);
  const ledger: LedgerRow[] = [];
  const summaries: unknown[] = [];
  for (const p of input.periods) {
    // The bounds are London midnights with their offsets: compare instants, never strings.
    const fromMs = instant(p.starts_at);
    const toMs = instant(p.ends_at);
    const seen = new Set<string>();
    const rows = (await gh.activity(fromMs, toMs))
      .filter((e) => {
        const at = instant(e.occurred_at);
        if (at < fromMs || at >= toMs || seen.has(e.id)) return false;
        seen.add(e.id);
        return true;
      })
      .map((e) => row(p.period_id, e))
      .sort((a, b) => (a.occurred_at === b.occurred_at ? (a.activity_id < b.activity_id ? -1 : 1) : a.occurred_at < b.occurred_at ? -1 : 1));
    ledger.push(...rows);
    const posted = rows.filter((r) => r.status === "posted");
    const byKind: Record<string, number> = {};
    for (const r of posted) byKind[r.kind] = (byKind[r.kind] ?? 0) + 1;
    summaries.push({
      period_id: p.period_id,
      starts_at: utc(fromMs),
      ends_at: utc(toMs),
      entries: rows.length,
      posted: posted.length,
      voided: rows.length - posted.length,
      posted_amount_cents: posted.reduce((sum, r) => sum + (r.amount_cents ?? 0), 0),
      posted_by_kind: Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => (a < b ? -1 : 1))),
    });
    console.error(`${p.period_id}: ${rows.length} entries (${rows.length - posted.length} voided)`);
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeAtomically(join(config.outputDir, "ledger.json"), ledger);
  writeAtomically(join(config.outputDir, "periods.json"), summaries);
}

main().catch((err) => {
  console.error(`audit failed: ${(err as Error).message}`);
  process.exit(1);
});
