import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Board, rowFromRecord } from "./board.ts";
import { closeOut, reopened } from "./closeout.ts";
import type { Config } from "./config.ts";
import { PlaceMintClient } from "./placemint.ts";

/** PlaceMint refuses to count a delivery older than five minutes; so do we. */
const MAX_SKEW_S = 300;

interface PlaceMintEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

type Headers = Record<string, string | string[] | undefined>;

/** Why a delivery is refused (bad or stale signature), or null for a genuine one. */
export function verify(secret: string, headers: Headers, body: string, nowS = Math.floor(Date.now() / 1000)): string | null {
  const one = (name: string) => {
    const v = headers[name];
    return (Array.isArray(v) ? v[0] : v)?.trim();
  };
  const ts = one("x-placemint-timestamp");
  const signature = one("x-placemint-signature");
  if (!ts || !signature) return "missing X-PlaceMint-Timestamp or X-PlaceMint-Signature";
  if (!/^\d+$/.test(ts)) return "X-PlaceMint-Timestamp is not Unix seconds";
  const skew = nowS - Number(ts);
  if (Math.abs(skew) > MAX_SKEW_S) return `X-PlaceMint-Timestamp is ${skew} s away from now`;
  const expected = createHmac("sha256", secret).update(`${ts}.${body}`).digest();
  const given = Buffer.from(signature.toLowerCase(), "hex");
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : "signature does not match";
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

/**
 * Applies a placement event to the board: a change only when it is newer than the row the
 * board holds (deliveries come twice and out of order), a deletion removes the row; an end the
 * board had open is closed out at once.
 */
async function apply(board: Board, client: PlaceMintClient, event: PlaceMintEvent): Promise<void> {
  const [entity, action] = event.type.split(".");
  if (entity !== "placement") return;
  const id = String(event.data.id);
  if (action === "deleted") {
    delete board.state.rows[id];
    return;
  }
  const row = rowFromRecord(event.data);
  const held = board.state.rows[id];
  if (held && held.updated_at >= row.updated_at) return;
  board.state.rows[id] = row;
  if (row.status !== "ended") reopened(board, id);
  // The listener closes a placement out as soon as it hears of the end (the board had it open).
  if (board.state.baseline && held && held.status !== "ended" && row.status === "ended") await closeOut(client, board, id, row.updated_at);
}

/** The webhook listener: verified, de-duplicated, applied and saved before it answers 200. */
export function serve(config: Config): void {
  const board = new Board(config.outputDir);
  const client = new PlaceMintClient(config);
  const seen = new Set(board.state.events);
  let queue: Promise<void> = Promise.resolve();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/placemint") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verify(config.webhookSecret, req.headers, body);
    if (problem) {
      console.error(`refused delivery: ${problem}`);
      return reply(res, 401, { error: problem });
    }
    let event: PlaceMintEvent;
    try {
      event = JSON.parse(body) as PlaceMintEvent;
    } catch {
      return reply(res, 400, { error: "not JSON" });
    }
    if (typeof event?.id !== "string" || typeof event.type !== "string" || !event.data || typeof event.data !== "object") return reply(res, 400, { error: "not a PlaceMint event" });
    // One event at a time: a delivery and its duplicate can arrive together.
    const turn = queue.then(async () => {
      if (seen.has(event.id)) return;
      await apply(board, client, event);
      seen.add(event.id);
      board.state.events = [...seen];
      board.save();
    });
    queue = turn.catch(() => undefined);
    await turn;
    reply(res, 200, { received: event.id });
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
    board.save();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
