import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { loadConfig, type Config } from "./config.ts";
import { verifyDelivery } from "./signature.ts";
import { ENTITIES, Store, type Entity, type LedgerRow } from "./store.ts";
import { TalentLoopClient } from "./talentloop-client.ts";

const PATHS: Record<Entity, string> = { candidate: "/v1/candidates", application: "/v1/applications" };
const DEAD_LETTERS = "/webhooks/dead_letters";
/** Dead letters taken from TalentLoop but not yet applied: the queue hands each one out once, so they are kept on disk first. */
const SPOOL = ".talentloop-dead-letters.json";

/**
 * Acknowledgement body. The partner notice names `acknowledged`; the published docs still say
 * `event_id`. The API reads `acknowledged` (an answer echoing only `event_id` is redelivered and
 * dead-lettered); echoing the id under both costs nothing.
 */
function ackBody(eventId: string): Record<string, string> {
  return { acknowledged: eventId, event_id: eventId };
}

interface TalentLoopEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

function isEvent(e: unknown): e is TalentLoopEvent {
  const x = e as Partial<TalentLoopEvent> | null;
  return !!x && typeof x.id === "string" && typeof x.type === "string" && !!x.data && typeof x.data === "object";
}

/**
 * Applies one event unless its id was already taken in. Deletes are final and
 * nothing older than what the mirror holds wins, so a late event (a dead
 * letter drained after newer deliveries) cannot take a record back in time.
 */
function apply(store: Store, event: TalentLoopEvent, via: LedgerRow["via"]): "applied" | "duplicate" {
  if (store.hasProcessed(event.id)) return "duplicate";
  const [entity, action] = event.type.split(".");
  if ((ENTITIES as string[]).includes(entity)) {
    if (action === "deleted") store.remove(entity as Entity, String(event.data.id));
    else store.upsert(entity as Entity, event.data);
  }
  store.record({ event_id: event.id, type: event.type, source_id: String(event.data.id), via });
  return "applied";
}

/** Reads everything and rebuilds the mirror (the event ledger is kept). */
async function backfill(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const store = new Store(config.outputDir);
  for (const entity of ENTITIES) {
    const rows = await client.listAll(PATHS[entity]);
    store.reset(entity);
    for (const r of rows) store.upsert(entity, r);
  }
  store.save();
  store.dump();
}

/**
 * Drains the dead-letter queue. A batch is written to a spool file before
 * anything is applied, and the spool is removed only once the mirror and
 * ledger holding it are saved: a run that dies in between applies it next time.
 */
async function drain(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const store = new Store(config.outputDir);
  const spool = join(config.outputDir, SPOOL);
  mkdirSync(config.outputDir, { recursive: true });
  const pending: TalentLoopEvent[] = existsSync(spool) ? JSON.parse(readFileSync(spool, "utf8")) : [];
  const { status, body } = await client.get(DEAD_LETTERS);
  if (status !== 200) throw new Error(`GET ${DEAD_LETTERS} answered ${status}`);
  const taken = ((body as { data?: unknown[] })?.data ?? []).filter(isEvent);
  if (taken.length) {
    pending.push(...taken);
    writeFileSync(`${spool}.tmp`, JSON.stringify(pending));
    renameSync(`${spool}.tmp`, spool);
  }
  // A dead letter is old news by the time it is drained: rather than its payload, the
  // record it names is read as TalentLoop holds it now (once per record), and that is
  // what the mirror takes in; a record gone (410) is removed.
  const current = new Map<string, Record<string, unknown> | "gone" | "unknown">();
  let applied = 0;
  for (const event of pending) {
    const [entity] = event.type.split(".");
    const id = String(event.data.id);
    if (!store.hasProcessed(event.id) && (ENTITIES as string[]).includes(entity)) {
      const key = `${entity}/${id}`;
      if (!current.has(key)) {
        const got = await client.get(`${PATHS[entity as Entity]}/${encodeURIComponent(id)}`);
        current.set(key, got.status === 200 && got.body && typeof got.body === "object" ? (got.body as Record<string, unknown>) : got.status === 410 ? "gone" : "unknown");
      }
      const now = current.get(key)!;
      if (now === "unknown") apply(store, event, "dead_letter");
      else {
        if (now === "gone") store.remove(entity as Entity, id);
        else store.upsert(entity as Entity, now);
        store.record({ event_id: event.id, type: event.type, source_id: id, via: "dead_letter" });
      }
      applied += 1;
      continue;
    }
    if (apply(store, event, "dead_letter") === "applied") applied += 1;
  }
  store.save();
  rmSync(spool, { force: true });
  store.dump();
  console.error(`drained ${taken.length} dead letters (${pending.length - taken.length} from an earlier run); ${applied} new, ${pending.length - applied} already taken in`);
}

function dump(config: Config): void {
  new Store(config.outputDir).dump();
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
 * The webhook listener. A delivery is verified before anything else looks at
 * it; an event already taken in is acknowledged again and not applied again;
 * events are applied one at a time and acknowledged, with the ack body, only
 * once the mirror and the ledger are on disk together.
 */
function serve(config: Config): void {
  const store = new Store(config.outputDir);
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => T): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/talentloop") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(config.webhookSecret, req.headers, body);
    if (problem) {
      console.error(`refused delivery ${req.headers["webhook-id"] ?? "?"}: ${problem}`);
      return reply(res, problem.includes("timestamp") ? 400 : 401, { error: problem });
    }
    let event: unknown;
    try {
      event = JSON.parse(body);
    } catch {
      return reply(res, 400, { error: "body is not JSON" });
    }
    if (!isEvent(event)) return reply(res, 400, { error: "not a TalentLoop event" });
    const outcome = await serial(() => {
      const result = apply(store, event, "webhook");
      if (result === "applied") store.save();
      return result;
    });
    reply(res, 200, { ...ackBody(event.id), outcome });
  };

  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight += 1;
    handle(req, res)
      .catch((err) => {
        console.error(err instanceof Error ? err.message : err);
        if (!res.headersSent) reply(res, 500, { error: "internal error" });
      })
      .finally(() => (inFlight -= 1));
  });
  server.listen(config.port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${config.port}`));
  // On SIGTERM: take no new connections, let deliveries already in progress finish, then flush and exit.
  const stop = async () => {
    server.close();
    server.closeIdleConnections();
    const deadline = Date.now() + 1500;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await chain;
    store.save();
    store.dump();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}

const command = process.argv[2];
const run: Record<string, () => Promise<void> | void> = {
  backfill: () => backfill(loadConfig({ api: true })),
  serve: () => serve(loadConfig({ webhooks: true })),
  drain: () => drain(loadConfig({ api: true })),
  dump: () => dump(loadConfig()),
};
if (!Object.hasOwn(run, command ?? "")) {
  console.error(`usage: node src/main.ts ${Object.keys(run).join("|")}`);
  process.exit(2);
}
Promise.resolve()
  .then(run[command])
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
