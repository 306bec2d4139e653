import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { ENTITIES, type Entity, Mirror, toRow } from "./mirror.ts";
import { verifyDelivery } from "./signature.ts";

/** A TalentLoop event as delivered. */
interface TalentLoopEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** The inbox: verified events taken in but not yet applied to the hub, oldest first. */
const INBOX = ".listener-inbox.json";

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
  else if (action === "created" || action === "updated") return mirror.apply(entity as Entity, toRow(event.data));
  else return false;
  return true;
}

/**
 * The webhook listener, inbox first: `GET /` for the supervisor, deliveries at
 * `POST /webhooks/talentloop`. A delivery is verified before anything reads
 * it; a verified event not already waiting is written to the inbox under
 * OUTPUT_DIR and acknowledged at once (it is safely on disk). A worker drains
 * the inbox in arrival order into the hub, where each record's own version
 * decides (events come twice and out of order, and a removal is final), saves
 * the hub, and only then drops what it applied from the inbox: a listener that
 * dies between the two applies those events again at its next start, which
 * changes nothing. On SIGTERM it takes no new deliveries, drains the inbox and
 * leaves the hub complete.
 */
export function serve(config: Config): void {
  const mirror = new Mirror(config.outputDir);
  mkdirSync(config.outputDir, { recursive: true });
  const inboxFile = join(config.outputDir, INBOX);
  const inbox: TalentLoopEvent[] = existsSync(inboxFile) ? (JSON.parse(readFileSync(inboxFile, "utf8")) as TalentLoopEvent[]) : [];
  const persist = () => {
    writeFileSync(`${inboxFile}.tmp`, JSON.stringify(inbox));
    renameSync(`${inboxFile}.tmp`, inboxFile);
  };

  let draining: Promise<void> | null = null;
  const drain = (): Promise<void> =>
    (draining ??= new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        while (inbox.length) {
          const batch = inbox.length;
          let changed = 0;
          for (const event of inbox.slice(0, batch)) if (applyEvent(mirror, event)) changed += 1;
          if (changed) mirror.save();
          inbox.splice(0, batch);
          persist();
        }
      })
      .finally(() => (draining = null)));

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
    if (!inbox.some((e) => e.id === event.id)) {
      inbox.push(event);
      persist();
    }
    reply(res, 200, { ok: true });
    void drain();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error(err instanceof Error ? err.message : err);
      if (!res.headersSent) reply(res, 500, { error: "internal error" });
    });
  });
  server.listen(config.port, "127.0.0.1", () => {
    console.error(`listening on http://127.0.0.1:${config.port}`);
    // An inbox a listener left behind (it died before draining) goes first.
    void drain();
  });
  const stop = async () => {
    server.close();
    server.closeIdleConnections();
    await drain();
    mirror.save();
    console.error(`listener stopped: ${mirror.summary()}`);
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}
