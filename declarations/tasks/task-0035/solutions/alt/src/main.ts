import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadAccounts } from "./accounts.ts";
import { loadConfig } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

interface Placement {
  id: string;
  client_id: string;
  status: string;
  currency: string;
  hourly_bill_rate: number;
  hours_per_week: number;
  deleted: boolean;
}

async function extract(): Promise<void> {
  const config = loadConfig();
  const client = new PlaceMintClient(config);
  const placements = (await client.list<Placement>("/v2/placements")).filter((p) => !p.deleted && p.status === "active");
  const accounts = await loadAccounts(
    client,
    placements.map((p) => p.client_id),
  );
  placements.sort((a, b) => (a.id < b.id ? -1 : 1));
  const rows = placements.map((p) => {
    const account = accounts.get(p.client_id);
    const status = account?.account_status ?? "active";
    return {
      placement_id: p.id,
      client_id: p.client_id,
      account_status: status,
      billing_contact: account?.billing_contact ?? null,
      currency: p.currency,
      hourly_bill_rate: p.hourly_bill_rate,
      hours_per_week: p.hours_per_week,
      weekly_billing_cents: p.hourly_bill_rate * p.hours_per_week,
      invoiceable: status === "active" && !account?.deleted,
    };
  });
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "book_extract.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.error(`${rows.length} active placements, ${rows.filter((r) => r.invoiceable).length} invoiceable`);
}

const command = process.argv[2];
if (command !== "extract") {
  console.error("usage: node src/main.ts extract");
  process.exit(2);
}
extract().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
