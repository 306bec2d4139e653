/**
 * Requests the HTTP runtime refuses before the farm Worker runs, as the
 * docs/control-plane.md states them: a request target of 65,535 characters or more gets
 * workerd's 414 and no log row; one character less is served and logged.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalFarm } from "../../scripts/farm/local-farm.ts";
import { control, startFarm } from "./farm.ts";

let farm: LocalFarm;
beforeAll(async () => {
  farm = await startFarm();
});
afterAll(() => farm?.stop());

function get(url: URL, target: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // The answer may name the unknown parameter in a Warning header: allow long response headers.
    const req = request({ host: url.hostname, port: url.port, path: target, headers, maxHeaderSize: 1 << 20 }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("request targets the runtime refuses", () => {
  it("answers 414 from 65,535 characters on, before the Worker (unlogged); 65,534 are served and logged", async () => {
    const w = await control(farm, "POST", "/v1/worlds", { vendors: { ats: "hirewire" }, seed: 1 });
    const base = new URL(w.vendors.ats.baseUrl);
    const headers = { "x-api-key": w.vendors.ats.credentials.api_key };
    const list = `${base.pathname}/v1/candidates`;
    const target = (n: number) => `${list}?x=${"a".repeat(n - list.length - 3)}`;
    const requests = async () => (await control(farm, "GET", `/v1/worlds/${w.world}`)).roles.ats.requests as number;

    expect(target(65_534)).toHaveLength(65_534);
    expect((await get(base, target(65_534), headers)).status).toBe(200);
    expect(await requests()).toBe(1);
    expect(await get(base, target(65_535), headers)).toEqual({ status: 414, body: "URI too long" });
    const tenThousand = `${list}?${Array.from({ length: 10_000 }, (_, i) => `p${i}=1`).join("&")}`;
    expect((await get(base, tenThousand, headers)).status).toBe(414);
    expect((await get(base, `${list}?${"&".repeat(10_000)}`, headers)).status).toBe(200);
    expect(await requests()).toBe(2);
  });
});
