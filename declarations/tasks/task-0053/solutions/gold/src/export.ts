import { PlaceMintError, type PlaceMintClient } from "./placemint.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Job {
  id: string;
  status: string;
}

/** Polls a job until it is ready. */
async function untilReady(client: PlaceMintClient, id: string): Promise<void> {
  for (let polls = 0; ; polls++) {
    const state = await client.request<Job>("GET", `/v2/exports/${encodeURIComponent(id)}`);
    if (state.status === "ready") return;
    if (state.status === "expired" || state.status === "failed" || polls > 30) throw new Error(`export ${id} is ${state.status}`);
    await sleep(100);
  }
}

/**
 * Requests an export, polls it until ready and downloads its file once (a file can be fetched
 * only twice). A download refused as not ready (409 `export_not_ready`, which uses up no
 * download) is PlaceMint saying "not yet": the job is polled again and the download asked again
 * after a pause, a few times, before the run gives up.
 */
export async function exportFile(client: PlaceMintClient, resource: string): Promise<string> {
  const job = await client.request<Job>("POST", "/v2/exports", { resource });
  for (let tries = 1; ; tries++) {
    await untilReady(client, job.id);
    try {
      return await client.request<string>("GET", `/v2/exports/${encodeURIComponent(job.id)}/file`);
    } catch (err) {
      const notReady = err instanceof PlaceMintError && err.status === 409 && err.code === "export_not_ready";
      if (!notReady || tries >= 5) throw err;
      await sleep(200 * tries);
    }
  }
}
