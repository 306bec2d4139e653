// GlobalHire activity ledger -> audit periods, written from GlobalHire's (stale) documentation:
// windows of up to 30 days are served whole, timestamps are UTC, voided (deleted) entries
// leave the list, and Retry-After is an HTTP date.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";

interface Period {
  period_id: string;
  starts_at: string;
  ends_at: string;
}

interface Entry {
  id: string;
  occurred_at: string;
  kind: string;
  placement_id: string | null;
  candidate_id: string | null;
  agency_id: string | null;
  branch: string;
  amount_cents: number | null;
}

const DAY_MS = 86_400_000;
/** The documented longest window. */
const MAX_WINDOW_DAYS = 30;
const PAGE_LIMIT = 200;

const command = process.argv[2];
if (command !== "audit") {
  console.error("usage: node src/main.ts audit");
  process.exit(2);
}

const config = loadConfig();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

async function page(params: Record<string, string>): Promise<{ items: Entry[]; total_count: number }> {
  const url = `${config.baseUrl}/v2/activity?${new URLSearchParams(params)}`;
  for (let attempt = 0; attempt < 30; attempt++) {
    const res = await fetch(url, { headers: { "X-GH-Api-Key": config.apiKey } });
    if (res.status === 429) {
      await res.text();
      // The docs: Retry-After is an HTTP date.
      const until = Date.parse(res.headers.get("retry-after") ?? "");
      await sleep(Math.max(100, Number.isNaN(until) ? 1000 : until - Date.now()));
      continue;
    }
    if (!res.ok) throw new Error(`GET /v2/activity answered ${res.status}`);
    return (await res.json()) as { items: Entry[]; total_count: number };
  }
  throw new Error("GET /v2/activity: still rate limited");
}

async function main(): Promise<void> {
  const input = JSON.parse(readFileSync(new URL("../input/audit-periods.json", import.meta.url), "utf8")) as { periods: Period[] };
  const ledger: Record<string, unknown>[] = [];
  const summaries: Record<string, unknown>[] = [];
  for (const p of input.periods) {
    const fromMs = Date.parse(p.starts_at);
    const toMs = Date.parse(p.ends_at);
    const entries: Entry[] = [];
    for (let start = fromMs; start < toMs; start += MAX_WINDOW_DAYS * DAY_MS) {
      const window = { from: iso(start), to: iso(Math.min(toMs, start + MAX_WINDOW_DAYS * DAY_MS)) };
      for (let offset = 0; ; ) {
        const res = await page({ ...window, offset: String(offset), limit: String(PAGE_LIMIT) });
        entries.push(...res.items);
        offset += res.items.length;
        if (res.items.length === 0 || offset >= res.total_count) break;
      }
    }
    // Timestamps are UTC (`Z`), so they sort and copy as text.
    entries.sort((a, b) => (a.occurred_at === b.occurred_at ? (a.id < b.id ? -1 : 1) : a.occurred_at < b.occurred_at ? -1 : 1));
    const byKind: Record<string, number> = {};
    for (const e of entries) {
      byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
      ledger.push({
        period_id: p.period_id,
        activity_id: e.id,
        occurred_at: e.occurred_at,
        kind: e.kind,
        placement_id: e.placement_id,
        candidate_id: e.candidate_id,
        agency_id: e.agency_id,
        branch: e.branch,
        amount_cents: e.amount_cents,
        // Voided entries are removed from the list, so everything listed is posted.
        status: "posted",
      });
    }
    summaries.push({
      period_id: p.period_id,
      starts_at: iso(fromMs),
      ends_at: iso(toMs),
      entries: entries.length,
      posted: entries.length,
      voided: 0,
      posted_amount_cents: entries.reduce((sum, e) => sum + (e.amount_cents ?? 0), 0),
      posted_by_kind: Object.fromEntries(Object.entries(byKind).sort(([a], [b]) => (a < b ? -1 : 1))),
    });
  }
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "ledger.json"), JSON.stringify(ledger, null, 2));
  writeFileSync(join(config.outputDir, "periods.json"), JSON.stringify(summaries, null, 2));
}

main().catch((err) => {
  console.error(`audit failed: ${(err as Error).message}`);
  process.exit(1);
});
