import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { loadConfig, type Config } from "./config.ts";
import { verifyDelivery } from "./signature.ts";
import { ENTITIES, PATHS, Store, type Entity } from "./store.ts";
import { TalentForge, type ApiRecord } from "./talentforge.ts";

/** The instant as TalentForge's filters take it: ISO 8601 in UTC, to the second. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * First run: read everything into the baseline (no change rows). Later runs:
 * read what changed since the newest record an earlier poll saw (the filter
 * is `modified_since`, at-or-after, so the boundary record comes back and is
 * recognised as unchanged), and log whatever the webhooks did not bring.
 */
async function sync(config: Config): Promise<void> {
  const client = new TalentForge(config);
  const store = new Store(config.outputDir);
  const baseline = !store.loaded;
  for (const entity of ENTITIES) {
    const mark = store.pollMark(entity);
    const rows = await client.list(PATHS[entity], baseline || mark === null ? {} : { modified_since: isoSeconds(mark) });
    let logged = 0;
    for (const r of rows) {
      if (baseline) store.seed(entity, r);
      else if (store.apply(entity, r, "poll", null)) logged += 1;
    }
    store.advancePollMark(entity, rows);
    console.error(`${entity}: ${rows.length} read${baseline ? " (baseline)" : `, ${logged} changes the webhooks had not brought`}`);
  }
  store.save();
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

interface TfEvent {
  id: string;
  type: string;
  data: { id: string };
}

function parseEvent(body: string): TfEvent | null {
  try {
    const e = JSON.parse(body) as Partial<TfEvent>;
    return typeof e.id === "string" && typeof e.type === "string" && e.data && typeof e.data.id === "string" ? (e as TfEvent) : null;
  } catch {
    return null;
  }
}

/**
 * The webhook listener, inbox first. A verified delivery of an event not seen
 * before is written to an inbox file under OUTPUT_DIR and acknowledged at once
 * (it is safely on disk); a worker drains the inbox one event at a time, one
 * read of the record each, and the record's own version decides whether the
 * mirror changes. A redelivery of an event in the inbox or already taken in
 * is acknowledged with no read. A read that fails stays in the inbox and is
 * tried again; on SIGTERM the listener stops taking deliveries, drains the
 * inbox and writes everything. An inbox left by a listener that died is
 * drained at the next start.
 */
function serve(config: Config): void {
  const store = new Store(config.outputDir);
  const client = new TalentForge(config);
  const inboxFile = join(config.outputDir, "inbox.json");
  const inbox: TfEvent[] = existsSync(inboxFile) ? (JSON.parse(readFileSync(inboxFile, "utf8")) as TfEvent[]) : [];
  const persist = () => {
    writeFileSync(`${inboxFile}.tmp`, JSON.stringify(inbox));
    renameSync(`${inboxFile}.tmp`, inboxFile);
  };

  let draining: Promise<void> | null = null;
  let stopping = false;
  const drain = (): Promise<void> =>
    (draining ??= (async () => {
      while (inbox.length) {
        const event = inbox[0];
        const entity = event.type.split(".")[0] as Entity;
        if (!store.hasEvent(event.id) && ENTITIES.includes(entity)) {
          let r: { status: number; body: unknown };
          try {
            r = await client.get(`${PATHS[entity]}/${encodeURIComponent(event.data.id)}`);
          } catch (err) {
            console.error(`event ${event.id}: ${err instanceof Error ? err.message : err}; kept in the inbox`);
            if (stopping) return; // the next start drains it
            await new Promise((res) => setTimeout(res, 200));
            continue;
          }
          if (r.status === 200) store.apply(entity, r.body as ApiRecord, "webhook", event.id);
        }
        store.rememberEvent(event.id);
        store.save();
        inbox.shift();
        persist();
      }
    })().finally(() => (draining = null)));

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/talentforge") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(config.webhookSecret, req.headers, body);
    if (problem) {
      console.error(`refused a delivery: ${problem}`);
      return reply(res, problem.includes("signature") ? 401 : 400, { error: problem });
    }
    const event = parseEvent(body);
    if (!event) return reply(res, 400, { error: "not a TalentForge event" });
    if (store.hasEvent(event.id) || inbox.some((e) => e.id === event.id)) return reply(res, 200, { ok: true, outcome: "duplicate" });
    inbox.push({ id: event.id, type: event.type, data: { id: event.data.id } });
    persist();
    reply(res, 200, { ok: true, outcome: "queued" });
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
    void drain();
  });
  // On SIGTERM: take no new deliveries, drain the inbox, write everything, exit.
  const stop = async () => {
    stopping = true;
    server.close();
    server.closeIdleConnections();
    await drain();
    store.save();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void> | void> = {
  sync: () => sync(loadConfig()),
  serve: () => serve(loadConfig({ listener: true })),
};
if (!Object.hasOwn(commands, command ?? "")) {
  console.error(`usage: node src/main.ts ${Object.keys(commands).join("|")}`);
  process.exit(2);
}
Promise.resolve()
  .then(commands[command])
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
