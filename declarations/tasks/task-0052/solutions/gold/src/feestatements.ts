import type { Row } from "./board.ts";
import { parseCsv } from "./csv.ts";
import type { PlaceMintClient } from "./placemint.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Job {
  id: string;
  status: string;
}

/** Export column headers (as the docs list them) for each board column. */
const HEADERS: Record<keyof Row, string> = {
  placement_id: "Placement ID",
  contractor_id: "Contractor ID",
  client_id: "Client ID",
  status: "Status",
  currency: "Currency",
  hourly_bill_rate: "Hourly bill rate (cents)",
  hours_per_week: "Hours per week",
  agency_fee_bps: "Agency fee (bps)",
  cost_center: "Cost centre",
  updated_at: "Last modified",
};

/**
 * The `fee_statements` export: requested, polled until ready, downloaded once (a file can be
 * fetched only twice) and read as PlaceMint writes it (semicolons, a byte order mark, CRLF).
 * It is one snapshot of every live placement, so it cannot shift under us like offset pages.
 */
export async function feeStatements(client: PlaceMintClient): Promise<Row[]> {
  const job = await client.request<Job>("POST", "/v2/exports", { resource: "fee_statements" });
  for (let polls = 0; ; polls++) {
    const state = await client.request<Job>("GET", `/v2/exports/${encodeURIComponent(job.id)}`);
    if (state.status === "ready") break;
    if (state.status === "expired" || state.status === "failed" || polls > 30) throw new Error(`export ${job.id} is ${state.status}`);
    await sleep(100);
  }
  const text = await client.request<string>("GET", `/v2/exports/${encodeURIComponent(job.id)}/file`);
  return parseCsv(text, ";").map((r) => {
    const row = {} as Row;
    for (const [col, header] of Object.entries(HEADERS) as [keyof Row, string][]) {
      if (!(header in r)) throw new Error(`the fee_statements export has no "${header}" column`);
      row[col] = r[header].trim();
    }
    return row;
  });
}
