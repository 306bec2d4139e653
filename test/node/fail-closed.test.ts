/**
 * A farm reached by a public name, as a deployed one is, refuses the
 * published development token: the real Workers in Miniflare, the Host
 * header standing in for a public hostname.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalFarm, type LocalFarm } from "../../scripts/farm/local-farm.ts";
import { DEV_ADMIN_TOKEN } from "../../workers/middleware/principal/dev-token.ts";

let farm: LocalFarm;
beforeAll(async () => {
  farm = await startLocalFarm({ port: 0, adminToken: DEV_ADMIN_TOKEN });
});
afterAll(() => farm?.stop());

/** GET /v1/vendors with the development token, under a Host of our choosing. */
function vendors(host: string): Promise<{ status: number; body: string }> {
  const url = new URL(`${farm.url}/v1/vendors`);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host, authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("a farm with the development token", () => {
  it("serves its control plane on loopback", async () => {
    expect((await vendors(new URL(farm.url).host)).status).toBe(200);
  });
  it("refuses it under a public hostname with 503 naming why", async () => {
    const r = await vendors("farm.wirebench.example");
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body).error).toMatch(/published development token/);
  });
});

describe("a farm bound to a public interface with the development token", () => {
  let open: LocalFarm;
  beforeAll(async () => {
    open = await startLocalFarm({ port: 0, host: "0.0.0.0", adminToken: DEV_ADMIN_TOKEN });
  });
  afterAll(() => open?.stop());

  it("refuses its control plane under a forged Host: 127.0.0.1 (the bind address decides, not the Host header)", async () => {
    const port = new URL(open.url).port;
    for (const host of [`127.0.0.1:${port}`, "localhost", "[::1]"]) {
      const r = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: "/v1/vendors", headers: { host, authorization: `Bearer ${DEV_ADMIN_TOKEN}` } }, (res) => {
          let body = "";
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
      expect(r.status, host).toBe(503);
      expect(JSON.parse(r.body).error).toMatch(/published development token/);
    }
  });
});
