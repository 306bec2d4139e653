import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AllowlistProxy } from "./proxy.ts";

/** An upstream standing in for a farm: answers with its own origin in a JSON body, a Location header and a binary body. */
let upstream: Server;
let origin = "";
beforeAll(async () => {
  upstream = createServer((req, res) => {
    if (req.url?.endsWith("/blob")) return res.writeHead(200, { "content-type": "application/octet-stream" }).end(`${origin}/raw`);
    if (req.url?.endsWith("/cut")) {
      // Half of a declared length, then the connection dropped: a farm's connection-reset fault.
      res.writeHead(200, { "content-type": req.url.includes("bin") ? "application/octet-stream" : "application/json", "content-length": "100" });
      res.write('{"items":[1,2,');
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    const next = `${origin}/w/r1-v-s1-0000000000000000/ats/items?page=2`;
    res
      .writeHead(req.url?.endsWith("/moved") ? 302 : 200, { "content-type": "application/json", location: next })
      .end(JSON.stringify({ items: [1], next, docs: `${origin}/w/r1-v-s1-0000000000000000/ats/_docs/` }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
});
afterAll(() => upstream.close());

async function through(sandboxOrigin: string | undefined, path: string) {
  const bridgeDir = mkdtempSync(join(tmpdir(), "wb-proxy-"));
  const proxy = new AllowlistProxy({ bridgeDir, farmOrigin: origin, sandboxOrigin, allowedPrefixes: ["/w/r1-v-s1-0000000000000000/ats"], modelOrigin: null, egressAllow: [] });
  await proxy.start();
  try {
    return await new Promise<{ status: number; location: string | undefined; body: string; length: string | undefined }>((resolve, reject) => {
      const req = request({ socketPath: join(bridgeDir, AllowlistProxy.SOCKETS.farm), path, headers: { host: "127.0.0.1:8790", "accept-encoding": "gzip" } }, (res) => {
        let body = "";
        res.on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body, length: res.headers["content-length"] }));
      });
      req.on("error", reject);
      req.end();
    });
  } finally {
    await proxy.stop();
    rmSync(bridgeDir, { recursive: true, force: true });
  }
}

/** What a client through the proxy sees of an answer: its end, or the error that cut it. */
async function outcome(sandboxOrigin: string | undefined, path: string): Promise<string> {
  const bridgeDir = mkdtempSync(join(tmpdir(), "wb-proxy-"));
  const proxy = new AllowlistProxy({ bridgeDir, farmOrigin: origin, sandboxOrigin, allowedPrefixes: ["/w/r1-v-s1-0000000000000000/ats"], modelOrigin: null, egressAllow: [] });
  await proxy.start();
  try {
    return await new Promise<string>((resolve) => {
      const req = request({ socketPath: join(bridgeDir, AllowlistProxy.SOCKETS.farm), path, headers: { host: "127.0.0.1:8790" } }, (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.complete ? "ended" : "ended short"));
        res.on("error", (err) => resolve(`error: ${err.message}`));
        res.on("aborted", () => resolve("error: aborted"));
      });
      req.on("error", (err) => resolve(`error: ${err.message}`));
      req.setTimeout(5_000, () => resolve("hung"));
      req.end();
    });
  } finally {
    await proxy.stop();
    rmSync(bridgeDir, { recursive: true, force: true });
  }
}

describe("an answer the farm cuts off", () => {
  const path = "/w/r1-v-s1-0000000000000000/ats/items";
  it.each([
    ["passed through as is", undefined, `${path}/cut`],
    ["rewritten (text)", "http://127.0.0.1:8790", `${path}/cut`],
    ["passed through (binary, rewriting on)", "http://127.0.0.1:8790", `${path}/bin/cut`],
  ])("%s: reaches the connector cut off, not hung and not whole", async (_label, sandboxOrigin, p) => {
    expect(await outcome(sandboxOrigin, p)).toMatch(/^error: /);
  });
});

describe("the sandbox proxy in front of a farm seen at another origin", () => {
  const local = "http://127.0.0.1:8790";
  const path = "/w/r1-v-s1-0000000000000000/ats/items";

  it("rewrites the farm's origin in text answers and Location headers, with a true Content-Length", async () => {
    const r = await through(local, path);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body.next).toBe(`${local}${path}?page=2`);
    expect(body.docs).toBe(`${local}/w/r1-v-s1-0000000000000000/ats/_docs/`);
    expect(r.body).not.toContain(origin);
    expect(Number(r.length)).toBe(Buffer.byteLength(r.body));
    const moved = await through(local, `${path}/moved`);
    expect(moved.status).toBe(302);
    expect(moved.location).toBe(`${local}${path}?page=2`);
  });

  it("leaves binary answers, and a farm seen at its own origin, untouched", async () => {
    expect((await through(local, `${path}/blob`)).body).toBe(`${origin}/raw`);
    const same = await through(undefined, path);
    expect(JSON.parse(same.body).next).toBe(`${origin}${path}?page=2`);
  });

  it("still refuses what is not the attempt's world", async () => {
    const r = await through(local, "/v1/worlds");
    expect(r.status).toBe(403);
  });
});
