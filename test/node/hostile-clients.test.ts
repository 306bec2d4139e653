import { cpSync, mkdtempSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { taskDir } from "../../scripts/harness/workspace.ts";
import { runCli, startServe } from "./run-cli.ts";

const ENV = { WIREBENCH_ADMIN_TOKEN: "hostile-clients-test" };
const stateDir = mkdtempSync(join(tmpdir(), "wb-hostile-state-"));
let farm: Awaited<ReturnType<typeof startServe>>;

beforeAll(async () => {
  farm = await startServe(["--persist", stateDir], ENV);
});
afterAll(() => {
  farm?.proc.kill("SIGTERM");
});

async function control(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${farm.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ENV.WIREBENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

/** Sends a raw request (node:http lets a GET or HEAD carry a body, as curl does). */
function raw(url: string, method: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { "content-length": String(Buffer.byteLength(body)), ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

describe("the real serve process against hostile clients", () => {
  it("answers and logs a GET or HEAD that carries a body", async () => {
    const w = await control("POST", "/v1/worlds", { vendors: { ats: "hirewire" } });
    const base = w.vendors.ats.baseUrl;
    expect(await raw(`${base}/v1/candidates`, "GET", "xyz", { "x-api-key": w.vendors.ats.credentials.api_key })).toBe(200);
    expect(await raw(`${base}/anything`, "HEAD", "xyz")).toBeLessThan(500);
    expect(await raw(`${base}/v1/candidates`, "GET", '{"a":1}')).toBe(401);
    const log = await control("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=0`);
    expect(log.records.map((r: any) => [r.method, r.body, r.bodyBytes])).toEqual([
      ["GET", "xyz", 3],
      ["HEAD", "xyz", 3],
      ["GET", { a: 1 }, 7],
    ]);
  });

  it("creates no storage for requests to made-up world ids", async () => {
    await control("POST", "/v1/worlds", { vendors: { ats: "hirewire" } });
    await new Promise((r) => setTimeout(r, 500));
    const before = bytesUnder(stateDir);
    for (let i = 0; i < 200; i++) {
      const id = `w_${(0x1000000000000000n + BigInt(i) * 7919n).toString(16).slice(0, 16)}`;
      const res = await fetch(`${farm.url}/w/${id}/ats/v1/candidates`, { method: i % 2 ? "POST" : "GET", body: i % 2 ? "{}" : undefined });
      expect(res.status).toBe(404);
      await res.arrayBuffer();
    }
    await new Promise((r) => setTimeout(r, 500));
    // Before the fix each object created its tables: about 250 KB apiece, 50 MB for 200.
    expect(bytesUnder(stateDir) - before).toBeLessThan(512 * 1024);
  });

  it("grades a connector that sends hostile bodies: conduct is judged and gold's work still scores", () => {
    const dir = mkdtempSync(join(tmpdir(), "wb-hostile-connector-"));
    cpSync(join(taskDir("task-0001"), "repo"), dir, { recursive: true });
    cpSync(join(taskDir("task-0001"), "solutions", "gold"), dir, { recursive: true });
    renameSync(join(dir, "src", "main.ts"), join(dir, "src", "gold-main.ts"));
    writeFileSync(
      join(dir, "src", "main.ts"),
      `const base = process.env.STAFFLINE_BASE_URL;
const deep = '{"a":'.repeat(3000) + "1" + "}".repeat(3000);
for (const body of [deep, "x".repeat(9 * 1024 * 1024), new Uint8Array([0xff, 0xfe, 0x41])]) {
  const res = await fetch(base + "/svc/candidates", { method: "POST", headers: { "content-type": "application/json" }, body });
  await res.arrayBuffer();
}
await import("./gold-main.ts");
`,
    );
    const r = runCli(["grade", "--task", "task-0001", "--repo", dir, "--json", "--farm", farm.url], ENV, 300_000);
    expect(r.code, r.stderr).toBe(0);
    const verdict = JSON.parse(r.stdout);
    expect(verdict.error).toBeNull();
    expect(verdict.checks.l2.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["no_credentials_in_query_string", "no_secrets_echoed_to_vendor"]));
    expect(verdict.score).toBe(100);
  });
});
