/**
 * A vendor's self-subscription route is recorded and never fetched: a URL
 * chosen from inside a sandbox gets no delivery from the farm, and the
 * receiver the harness registered keeps every delivery. Run on a real local
 * farm with two real listeners, for every vendor that has the route.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDORS } from "../../declarations/vendors/index.ts";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { documentedClient } from "../../scripts/contract/openapi-contract.ts";
import { control, startFarm } from "./farm.ts";

let farm: LocalFarm;
const servers: Server[] = [];
const hits = { registered: [] as string[], subscribed: [] as string[] };

async function listener(into: string[]): Promise<string> {
  const server = createServer((req, res) => {
    into.push(req.url ?? "");
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      // Acknowledged the way the vendor asks (ack-body vendors), so nothing is retried.
      res.setHeader("content-type", "application/json");
      res.end(ackField ? JSON.stringify({ [ackField]: (JSON.parse(body) as { id: string }).id }) : "{}");
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

let registered = "";
let ackField: string | undefined;
let subscribed = "";

beforeAll(async () => {
  farm = await startFarm();
  registered = await listener(hits.registered);
  subscribed = await listener(hits.subscribed);
});

afterAll(async () => {
  for (const s of servers) s.close();
  await farm?.stop();
});

async function until(cond: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const subscribing = Object.values(VENDORS).filter((v) => v.webhooks?.subscriptionPath);

describe("self-subscriptions", () => {
  it("covers the seven vendors that have the route", () => {
    expect(subscribing.map((v) => v.id).sort()).toHaveLength(7);
  });

  it.each(subscribing.map((v) => [v.id, v.webhooks!.subscriptionPath!]))("%s: the subscribed URL gets nothing, the registered receiver every delivery", { timeout: 60_000 }, async (vendor, path) => {
    const target = `${registered}/registered/${vendor}`;
    ackField = VENDORS[vendor].webhooks!.ack?.field;
    const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: vendor }, seed: 3, webhookTargets: { ats: target } });
    const ats = w.vendors.ats;
    const doc = (await (await fetch(`${ats.baseUrl}/_docs/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>> };
    const authed = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .find((op) => op.operationId && (op.security ?? [{}]).length > 0 && Object.keys((op.security ?? [{ x: 1 }])[0] as object).length > 0);
    expect(authed, "an operation that carries credentials").toBeTruthy();
    const client = documentedClient({ baseUrl: ats.baseUrl, credentials: ats.credentials, doc });
    const sub = await client.sendWithAuthOf(authed!.operationId!, "POST", path, { body: { url: `${subscribed}/sandbox/${vendor}?q=${encodeURIComponent("select * from secrets")}` } });
    expect(sub.status, sub.text).toBe(201);

    const before = { registered: hits.registered.length, subscribed: hits.subscribed.length };
    await control(farm, "POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 1 });
    const log = async () => (await control(farm, "GET", `/v1/worlds/${w.world}/roles/ats/webhooks?epoch=1`)).records as { target: string }[];
    await until(async () => (await log()).length > 0 && (await control(farm, "GET", `/v1/worlds/${w.world}`)).roles.ats.pendingDeliveries === 0);
    const rows = await log();
    expect(rows.every((r) => r.target === target)).toBe(true);
    expect(hits.subscribed.length - before.subscribed).toBe(0);
    expect(hits.registered.length - before.registered).toBeGreaterThan(0);
  });
});
