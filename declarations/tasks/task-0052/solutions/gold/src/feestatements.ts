import type { Row } from "./board.ts";
import { parseCsv } from "./csv.ts";
import { type PlaceMintClient, PlaceMintError } from "./placemint.ts";

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

/** Polls an export job until it is ready; an expired or failed job, or one that never gets ready, ends the run. */
async function untilReady(client: PlaceMintClient, id: string): Promise<void> {
  for (let polls = 0; ; polls++) {
    const state = await client.request<Job>("GET", `/v2/exports/${encodeURIComponent(id)}`);
    if (state.status === "ready") return;
    if (state.status === "expired" || state.status === "failed" || polls > 30) throw new Error(`export ${id} is ${state.status}`);
    await sleep(100);
  }
}

/**
 * The `fee_statements` export: requested, polled until ready, downloaded once (a file can be
 * fetched only twice) and read as PlaceMint writes it (semicolons, a byte order mark, CRLF).
 * It is one snapshot of every live placement, so it cannot shift under us like offset pages.
 * A download refused as not ready (409 `export_not_ready`, a refusal that uses up no download)
 * means the file lags the job's status: the job is polled again and the download asked again.
 */
export async function feeStatements(client: PlaceMintClient): Promise<Row[]> {
  const job = await client.request<Job>("POST", "/v2/exports", { resource: "fee_statements" });
  let text: string | null = null;
  for (let tries = 1; text === null; tries++) {
    await untilReady(client, job.id);
    try {
      text = await client.request<string>("GET", `/v2/exports/${encodeURIComponent(job.id)}/file`);
    } catch (err) {
      if (!(err instanceof PlaceMintError && err.status === 409 && err.code === "export_not_ready") || tries >= 5) throw err;
      await sleep(200 * tries);
    }
  }
  return parseCsv(text, ";").map((r) => {
    const row = {} as Row;
    for (const [col, header] of Object.entries(HEADERS) as [keyof Row, string][]) {
      if (!(header in r)) throw new Error(`the fee_statements export has no "${header}" column`);
      row[col] = r[header].trim();
    }
    return row;
  });
}
