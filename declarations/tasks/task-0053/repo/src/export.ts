import type { PlaceMintClient } from "./placemint.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Job {
  id: string;
  status: string;
}

/** Requests an export, polls it until ready and downloads its file once (a file can be fetched only twice). */
export async function exportFile(client: PlaceMintClient, resource: string): Promise<string> {
  const job = await client.request<Job>("POST", "/v2/exports", { resource });
  for (let polls = 0; ; polls++) {
    const state = await client.request<Job>("GET", `/v2/exports/${encodeURIComponent(job.id)}`);
    if (state.status === "ready") break;
    if (state.status === "expired" || state.status === "failed" || polls > 30) throw new Error(`export ${job.id} is ${state.status}`);
    await sleep(100);
  }
  return client.request<string>("GET", `/v2/exports/${encodeURIComponent(job.id)}/file`);
}
