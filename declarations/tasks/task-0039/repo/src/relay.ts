import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Config } from "./config.ts";
import { verifyDelivery } from "./signature.ts";
import { ENTITIES, type Entity, Store, toRow } from "./store.ts";

/** An Interviewly event as delivered. */
interface InterviewlyEvent {
  id: string;
  type: string;
  created_at: number;
  data: Record<string, unknown>;
}

/** What the relay remembers between deliveries (and restarts). */
interface RelayState {
  /** Number of the newest event handled (`evt_00042` is 42). */
  last_event_seq: number;
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

function parseEvent(body: string): InterviewlyEvent | null {
  try {
    const e = JSON.parse(body) as Partial<InterviewlyEvent>;
    return typeof e.id === "string" && typeof e.type === "string" && e.data && typeof e.data === "object" ? (e as InterviewlyEvent) : null;
  } catch {
    return null;
  }
}

/** Applies one event to the copy and journals it. */
function applyEvent(store: Store, event: InterviewlyEvent): void {
  const [entity, action] = event.type.split(".");
  if (!(ENTITIES as string[]).includes(entity)) return;
  const id = String(event.data.id);
  if (action === "deleted") {
    const row = store.get(entity as Entity, id);
    store.put(entity as Entity, { source_id: id, data: row?.data ?? {}, updated_at: Number(event.created_at), is_deleted: true });
    store.journal({ event_id: event.id, type: event.type, source_id: id, updated_at: Number(event.created_at) });
    return;
  }
  const row = toRow(event.data);
  store.put(entity as Entity, row);
  store.journal({ event_id: event.id, type: event.type, source_id: id, updated_at: row.updated_at });
}

/**
 * The webhook listener: `GET /` for the health check, Interviewly deliveries
 * at `POST /webhooks/interviewly`. A delivery is verified before anything
 * reads it, applied and saved before it is acknowledged; Interviewly counts
 * a delivery only when the answer echoes its id in `ack`.
 */
export function serve(config: Config): void {
  const store = new Store(config.outputDir);
  store.ensureJournal();
  const state = store.readState<RelayState>({ last_event_seq: 0 });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/interviewly") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(config.webhookSecret, req.headers, body);
    if (problem) {
      console.error(`refused delivery: ${problem}`);
      return reply(res, 401, { error: problem });
    }
    const event = parseEvent(body);
    if (!event) return reply(res, 400, { error: "not an Interviewly event" });

    // Interviewly re-sends events in storms (INT-412). Events are numbered in
    // the order they happen, so anything at or below the newest one we have
    // handled is a replay: acknowledge it and move on. This also keeps an
    // older change from overwriting a newer one.
    const seq = Number(event.id.replace(/^evt_/, ""));
    if (seq <= state.last_event_seq) return reply(res, 200, { ack: event.id });

    applyEvent(store, event);
    store.save();
    state.last_event_seq = seq;
    store.writeState(state);
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
    store.save();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
