import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Config } from "./config.ts";
import { recordConfirmation } from "./confirmations.ts";
import { verifyDelivery } from "./signature.ts";

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/**
 * The listener: verifies each delivery, records the `interview.updated`
 * events that carry a request id (the confirmations of moves) and the
 * `interview.reschedule_failed` ones (moves turned down), and
 * acknowledges every genuine delivery by echoing its id in `ack`.
 */
export function serve(config: Config): void {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/interviewly") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(config.webhookSecret, req.headers, body);
    if (problem) return reply(res, 401, { error: problem });
    let event: { id?: unknown; type?: unknown; request_id?: unknown; error?: unknown; data?: Record<string, unknown> };
    try {
      event = JSON.parse(body);
    } catch {
      return reply(res, 400, { error: "not JSON" });
    }
    if (typeof event.id !== "string") return reply(res, 400, { error: "no event id" });
    if (event.type === "interview.updated" && typeof event.request_id === "string" && event.data) {
      recordConfirmation(config.outputDir, { event_id: event.id, request_id: event.request_id, interview_id: String(event.data.id), starts_at: Number(event.data.starts_at) });
    } else if (event.type === "interview.reschedule_failed" && typeof event.request_id === "string" && event.data) {
      // Accepted, then turned down: the interview kept its slot.
      const error = (event.error ?? {}) as { code?: unknown; message?: unknown };
      const refused = { code: String(error.code ?? "reschedule_failed"), message: typeof error.message === "string" ? error.message : "Interviewly turned the move down" };
      recordConfirmation(config.outputDir, { event_id: event.id, request_id: event.request_id, interview_id: String(event.data.id), starts_at: Number(event.data.starts_at), refused });
    }
    reply(res, 200, { ack: event.id });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      if (!res.headersSent) reply(res, 500, { error: "internal error" });
    });
  });
  server.listen(config.port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${config.port}`));
  const stop = () => {
    server.close();
    server.closeIdleConnections();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
