import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Config } from "./config.ts";
import { ENTITIES, type Entity, Mirror, toRow } from "./mirror.ts";
import { verifyDelivery } from "./signature.ts";

/** A TalentLoop event as delivered. */
interface TalentLoopEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

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

function parseEvent(body: string): TalentLoopEvent | null {
  try {
    const e = JSON.parse(body) as Partial<TalentLoopEvent>;
    return typeof e.id === "string" && typeof e.type === "string" && e.data && typeof e.data === "object" ? (e as TalentLoopEvent) : null;
  } catch {
    return null;
  }
}

/** Applies one event: created and updated carry the whole record, deleted only its id. */
export function applyEvent(mirror: Mirror, event: TalentLoopEvent): boolean {
  const [entity, action] = event.type.split(".");
  if (!(ENTITIES as string[]).includes(entity)) return false;
  if (action === "deleted") mirror.remove(entity as Entity, String(event.data.id));
  else if (action === "created" || action === "updated") mirror.apply(entity as Entity, toRow(event.data));
  else return false;
  return true;
}

/**
 * The webhook listener: `GET /` for the supervisor, deliveries at
 * `POST /webhooks/talentloop`. A delivery is verified before anything reads
 * it, and an applied event is on disk before it is acknowledged.
 */
export function serve(config: Config): void {
  const mirror = new Mirror(config.outputDir);

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/talentloop") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(config.webhookSecret, req.headers, body);
    if (problem) {
      console.error(`refused delivery ${req.headers["webhook-id"] ?? "?"}: ${problem}`);
      return reply(res, 401, { error: problem });
    }
    const event = parseEvent(body);
    if (!event) return reply(res, 400, { error: "not a TalentLoop event" });
    if (applyEvent(mirror, event)) mirror.save();
    reply(res, 200, { ok: true });
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
    mirror.save();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
