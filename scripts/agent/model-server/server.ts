/**
 * @module server
 * The scripted model server: a local HTTP server that speaks the wire
 * protocols of the lanes (registered in `model-server/index.ts`) and plays a
 * script of turns, so every lane can be driven end to end with no provider.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Script } from "../script.ts";
import { PROTOCOLS } from "./index.ts";
import type { ModelProtocol } from "./protocol.ts";

export interface ScriptedModelServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Every request the server answered: protocol, the step index it played, and the status. */
  calls: { protocol: string; path: string; turn: number; status: number }[];
  stop(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts a server on 127.0.0.1 that plays `script`. Past its last step it keeps answering with the last `done`. */
export async function startScriptedModel(script: Script, opts: { port?: number; protocols?: ModelProtocol[] } = {}): Promise<ScriptedModelServer> {
  const protocols = opts.protocols ?? PROTOCOLS;
  const calls: ScriptedModelServer["calls"] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const protocol = protocols.find((p) => p.matches(req.method ?? "GET", path));
    const text = await readBody(req);
    if (!protocol) {
      // Model listings and other side calls the CLIs make: an empty but well-formed answer.
      res.writeHead(path.endsWith("/models") ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(path.endsWith("/models") ? { object: "list", data: [{ id: script.model, object: "model" }] } : { error: { message: `no scripted route for ${req.method} ${path}` } }));
      return;
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "body is not JSON" } }));
      return;
    }
    const turn = Math.min(protocol.turnOf(body), script.steps.length - 1);
    const step = script.steps[turn];
    try {
      if (step.kind === "fail") {
        // Retry at once: a CLI that retries a fixed number of times (OpenCode) then fails in a second, not a minute.
        res.writeHead(step.status, { "content-type": "application/json", "retry-after-ms": "0", "retry-after": "0" }).end(step.body);
      } else {
        await protocol.respond(step, { script, body, req, res });
      }
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: (err as Error).message } }));
    }
    calls.push({ protocol: protocol.id, path, turn, status: res.statusCode });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
