import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startServe } from "./run-cli.ts";

const ENV = { WIREBENCH_ADMIN_TOKEN: "log-durability-test" };
type Farm = Awaited<ReturnType<typeof startServe>>;
let running: Farm | undefined;

afterEach(() => {
  if (running?.proc.exitCode === null) process.kill(-running.proc.pid!, "SIGKILL");
  running = undefined;
});

/** A persisted farm in a process group of its own, so that a kill takes its workerd with it. */
async function serve(stateDir: string): Promise<Farm> {
  running = await startServe(["--persist", stateDir], ENV, true);
  return running;
}

/** Kills the farm's whole process group at once, as a machine losing power would, and waits until it is gone. */
async function kill(farm: Farm): Promise<void> {
  const exited = new Promise((resolve) => farm.proc.once("exit", resolve));
  process.kill(-farm.proc.pid!, "SIGKILL");
  await exited;
}

async function control(farm: Farm, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${farm.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ENV.WIREBENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

describe("a request's log row is durable before its answer leaves", () => {
  for (const [label, n, concurrent] of [
    ["one request", 1, false],
    ["three requests one after another", 3, false],
    ["three requests at once", 3, true],
  ] as const)
    it(`keeps the row of ${label} answered right before the farm is killed`, async () => {
      const stateDir = mkdtempSync(join(tmpdir(), "wb-log-durability-"));
      let farm = await serve(stateDir);
      const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "hirewire" } });
      const { baseUrl, credentials } = w.vendors.ats;
      const get = async (i: number) => {
        const res = await fetch(`${baseUrl}/v1/candidates?limit=${i + 1}`, { headers: { "x-api-key": credentials.api_key } });
        await res.arrayBuffer();
        return res.status;
      };
      const statuses = concurrent ? await Promise.all(Array.from({ length: n }, (_, i) => get(i))) : [];
      if (!concurrent) for (let i = 0; i < n; i++) statuses.push(await get(i));
      await kill(farm);
      expect(statuses).toEqual(Array(n).fill(200));

      farm = await serve(stateDir);
      const log = await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=0`);
      expect(log.records.map((r: { path: string; query: Record<string, string>; status: number }) => [r.path, r.query.limit, r.status]).sort()).toEqual(
        Array.from({ length: n }, (_, i) => ["/v1/candidates", String(i + 1), 200]).sort(),
      );
      await kill(farm);
    }, 180_000);
});
