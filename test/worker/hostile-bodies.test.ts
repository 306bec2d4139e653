import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TASKS } from "../../declarations/tasks/index.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { admin, farm, rel } from "./helpers.ts";

/** One task per vendor, so each vendor's traffic is sealed and graded under a task that uses it. */
const TASK_OF_VENDOR: Record<string, string> = { staffline: "task-0001", talentforge: "task-0002", hirewire: "task-0003", globalhire: "task-0006", talentloop: "task-0007" };

const encoder = new TextEncoder();

/** Bodies a hostile or broken client might send: deep nesting, sizes across the limit, bytes that are not UTF-8. */
const hostileBody = fc.oneof(
  fc.constantFrom(10, 65, 3_000, 100_000).map((levels) => ({ label: `nested ${levels}`, bytes: encoder.encode(`${"[".repeat(levels)}${"]".repeat(levels)}`) })),
  fc.constantFrom(0, 1_000, 1024 * 1024, 1024 * 1024 + 1, 9_000_000, 20_000_000).map((size) => ({ label: `${size} bytes`, bytes: new Uint8Array(size).fill(0x7b) })),
  fc.uint8Array({ minLength: 1, maxLength: 256 }).map((bytes) => ({ label: "binary", bytes })),
  fc.constantFrom([0xc3, 0x28], [0xff], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf, 0x7b, 0x7d]).map((b) => ({ label: "bad utf-8", bytes: new Uint8Array(b) })),
);

describe("hostile bodies against every vendor", () => {
  it.each(Object.entries(TASK_OF_VENDOR))("%s: one log row per request, the log reads, the run seals and grades", { timeout: 60_000 }, async (vendor, taskId) => {
    const task = TASKS[taskId].task;
    const role = Object.keys(task.roles)[0];
    expect(task.roles[role].vendor).toBe(vendor);
    const w = (await admin("POST", "/v1/worlds", { task: taskId })).body;
    expect((await admin("POST", `/v1/worlds/${w.world}/roles/${role}/recreate`, { checkpoint: task.roles[role].checkpoint })).status).toBe(200);
    const base = rel(w.vendors[role].baseUrl);
    const sent = await sendHostileBodies(base, 8);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.body.roles[role]).toMatchObject({ requests: sent, unloggedRequests: 0 });
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/${role}/requests?epoch=1`);
    expect(log.status).toBe(200);
    expect(log.body.records).toHaveLength(sent);
    const sealed = await admin("POST", "/v1/runs", { world: w.world, task: taskId, seed: task.seed, scenarios: [{ name: task.scenarios[0].name, epochs: { [role]: [1] }, runs: [] }] });
    expect(sealed.status).toBe(201);
    const graded = await admin("POST", `/v1/runs/${sealed.body.run}/grade`);
    expect(graded.status).toBe(200);
    expect(graded.body.checks.l2.length).toBeGreaterThan(0);
  });
});

describe("hostile bodies against the vendors no task uses yet", () => {
  const untasked = Object.keys(VENDORS).filter((v) => !(v in TASK_OF_VENDOR));
  it("leaves none out", () => expect(untasked.length + Object.keys(TASK_OF_VENDOR).length).toBe(Object.keys(VENDORS).length));

  it.each(untasked)("%s: never a 5xx the declaration does not give, and one log row per request", { timeout: 60_000 }, async (vendor) => {
    const w = (await admin("POST", "/v1/worlds", { vendors: { x: vendor }, seed: 3 })).body;
    const base = rel(w.vendors.x.baseUrl);
    const sent = await sendHostileBodies(base, 11, 12);
    const status = await admin("GET", `/v1/worlds/${w.world}`);
    expect(status.body.roles.x).toMatchObject({ requests: sent, unloggedRequests: 0 });
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/x/requests?epoch=0`);
    expect(log.body.records).toHaveLength(sent);
  });
});

/**
 * Sends `runs` hostile bodies to a vendor's own paths (and two it does not have);
 * none may be answered 5xx except a SOAP 1.1 Fault, which HTTP 500 carries by
 * that protocol's rule. Returns how many requests were sent.
 */
async function sendHostileBodies(base: string, seed: number, runs = 20): Promise<number> {
  const paths = ["/", "/anything", ...(await vendorPaths(base))];
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(
      hostileBody,
      fc.constantFrom(...paths),
      fc.constantFrom("POST", "PUT", "PATCH", "DELETE"),
      fc.constantFrom("application/json", "application/x-www-form-urlencoded", "text/xml", "multipart/form-data; boundary=x", ""),
      async (body, path, method, type) => {
        const res = await farm(`${base}${path}`, { method, headers: type ? { "content-type": type } : {}, body: body.bytes });
        const text = await res.text();
        sent += 1;
        const soapFault = res.status === 500 && /<soap:Fault>/.test(text);
        expect(res.status < 500 || soapFault, `${method} ${path} ${body.label}: ${res.status} ${text.slice(0, 120)}`).toBe(true);
      },
    ),
    { numRuns: runs, seed },
  );
  return sent;
}

/** The vendor's own route paths (parameters filled with a placeholder), from its served OpenAPI document. */
async function vendorPaths(base: string): Promise<string[]> {
  const doc = (await (await farm(`${base}/_docs/openapi.json`)).json()) as { paths: Record<string, unknown> };
  return Object.keys(doc.paths).map((p) => p.replace(/\{[^}]+\}/g, "x1"));
}
