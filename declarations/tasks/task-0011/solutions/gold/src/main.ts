import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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
 * The webhook listener. A delivery is verified before anything reads it. An
 * event already taken in is acknowledged without another read; a new one
 * costs one read of the record it names, and the record's own version decides
 * whether the mirror changes. Events are handled one at a time, and one is
 * remembered (with its change) only once that read succeeded, so a delivery
 * that failed is taken in when TalentForge sends it again.
 */
function serve(config: Config): void {
  const store = new Store(config.outputDir);
  const client = new TalentForge(config);
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };

  const take = (event: TfEvent) =>
    serial(async () => {
      if (store.hasEvent(event.id)) return "duplicate";
      const entity = event.type.split(".")[0] as Entity;
      if (!ENTITIES.includes(entity)) {
        store.rememberEvent(event.id);
        store.save();
        return "ignored";
      }
      const r = await client.get(`${PATHS[entity]}/${encodeURIComponent(event.data.id)}`);
      const changed = r.status === 200 && store.apply(entity, r.body as ApiRecord, "webhook", event.id);
      store.rememberEvent(event.id);
      store.save();
      return changed ? "applied" : "unchanged";
    });

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
    try {
      reply(res, 200, { ok: true, outcome: await take(event) });
    } catch (err) {
      console.error(`event ${event.id}: ${err instanceof Error ? err.message : err}`);
      reply(res, 503, { error: "could not take the event in; send it again" });
    }
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
  // On SIGTERM: take no new deliveries, let those in progress finish, write everything, exit.
  const stop = async () => {
    server.close();
    server.closeIdleConnections();
    const deadline = Date.now() + 1500;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await chain;
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
