// TalentForge mirror. Commands: sync (the retired nightly poll), serve (webhook listener),
// cutover (one-time switch from the poll to the listener; safe to rerun), reconcile (bounded safety-net poll).
// The listener holds what it receives until the cut-over has finished, then replays it.
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { ENTITIES, LIST_PATHS, Mirror, type Entity } from "./mirror.ts";
import { verifyDelivery } from "./signature.ts";
import { Store, type HeldEvent } from "./store.ts";
import { TalentForge, clientConfig, type ApiRecord } from "./talentforge.ts";

const outDir = () => process.env.OUTPUT_DIR ?? "output";
/** The instant as TalentForge's filter takes it: ISO 8601 UTC, to the second. */
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/** The nightly poll, as it ran before the switch; once the listener's state exists it does nothing. */
async function sync(): Promise<void> {
  if (existsSync(join(outDir(), ".talentforge-state.json"))) {
    console.error("the nightly poll is retired: the webhook listener owns the mirror now (use reconcile)");
    return;
  }
  const mirror = new Mirror(outDir());
  const client = new TalentForge(clientConfig());
  for (const entity of ENTITIES) {
    const mark = mirror.poll.watermarks[entity];
    const baseline = mark === null;
    const records = await client.list(LIST_PATHS[entity], baseline ? {} : { modified_since: mark });
    for (const r of records) mirror.apply(entity, r, "poll", null, !baseline);
    mirror.poll.watermarks[entity] = records.reduce<string | null>((m, r) => (m === null || Date.parse(String(r.updated_at)) > Date.parse(m) ? String(r.updated_at) : m), mark);
  }
  mirror.save();
}

/**
 * A poll from the last poll's watermark (`modified_since` is at-or-after: the
 * boundary records come back and are recognised as already mirrored). Reads
 * happen outside the lock, so the listener keeps acknowledging (and holding)
 * meanwhile; the results are applied to the freshly reloaded state, where each
 * record's own version decides. The first cut-over runs before the listener
 * takes anything in; a second one, or a reconciliation, may follow events the
 * listener took in, and a version the mirror holds is not logged again.
 */
async function catchUp(label: string, finish?: (s: Store) => void): Promise<void> {
  const store = new Store(outDir());
  const client = new TalentForge(clientConfig());
  const marks = await store.locked((s) => Object.fromEntries(ENTITIES.map((e) => [e, s.mark(e)])) as Record<Entity, number | null>, { save: () => false });
  const read: [Entity, ApiRecord[]][] = [];
  for (const entity of ENTITIES) {
    const mark = marks[entity];
    read.push([entity, await client.list(LIST_PATHS[entity], mark === null ? {} : { modified_since: isoSeconds(mark) })]);
  }
  await store.locked(
    (s) => {
      const baseline = !s.loaded;
      for (const [entity, rows] of read) {
        let logged = 0;
        for (const r of rows) {
          if (baseline) s.seed(entity, r);
          else if (s.apply(entity, r, "poll", null)) logged += 1;
        }
        s.advanceMark(entity, rows);
        console.error(`${label} ${entity}: ${rows.length} read, ${baseline ? "baseline" : `${logged} changes taken in`}`);
      }
      finish?.(s);
    },
    { save: () => true },
  );
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
 * The listener. Until the cut-over has finished it takes nothing in: each
 * verified event is held on disk (and acknowledged), so nothing the listener
 * does can cross the cut-over's catch-up. Once the cut-over has finished, the
 * held events are replayed, oldest first, and every later event is taken in
 * as it comes: read the record it names and apply it to the state as it is on
 * disk now, where the record's own version decides whether it is a change.
 */
function serve(): void {
  const secret = process.env.TALENTFORGE_WEBHOOK_SECRET ?? "";
  const port = Number(process.env.SERVE_PORT ?? 8080);
  const store = new Store(outDir());
  const client = new TalentForge(clientConfig());
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };

  /** Reads the record an event names and takes it in, once. */
  const takeIn = async (event: HeldEvent): Promise<string> => {
    const entity = event.type.split(".")[0] as Entity;
    if (!ENTITIES.includes(entity)) {
      return store.locked(
        (s) => {
          s.rememberEvent(event.id);
          return "ignored";
        },
        { save: () => true },
      );
    }
    const r = await client.get(`${LIST_PATHS[entity]}/${encodeURIComponent(event.recordId)}`);
    return store.locked(
      (s) => {
        if (s.hasEvent(event.id)) return "duplicate";
        const changed = r.status === 200 && s.apply(entity, r.body as ApiRecord, "webhook", event.id);
        s.rememberEvent(event.id);
        return changed ? "applied" : "unchanged";
      },
      { save: (o) => o !== "duplicate" },
    );
  };

  /** The held events, oldest first, once the cut-over has finished; false while it has not. */
  let holding = true;
  const replay = async (): Promise<boolean> => {
    const { cutOver, held } = await store.locked((s) => ({ cutOver: s.cutoverAt !== null, held: s.held }), { save: () => false });
    if (!cutOver) return false;
    for (const event of held) console.error(`replayed held event ${event.id}: ${await takeIn(event)}`);
    holding = false;
    return true;
  };
  // While holding, look every quarter second whether the cut-over has finished.
  const watch = setInterval(() => {
    if (holding) serial(replay).catch((err) => console.error(`replaying held events: ${err instanceof Error ? err.message : err}`));
  }, 250);

  const take = (event: TfEvent) =>
    serial(async () => {
      const step = await store.locked(
        (s) => {
          if (s.hasEvent(event.id) || s.isHeld(event.id)) return "duplicate";
          if (s.cutoverAt === null) {
            s.hold({ id: event.id, type: event.type, recordId: event.data.id });
            return "held";
          }
          return s.held.length ? "replay" : "live";
        },
        { save: (o) => o === "held" },
      );
      if (step === "held") holding = true;
      if (step === "duplicate" || step === "held") return step;
      if (step === "replay") await replay();
      return takeIn({ id: event.id, type: event.type, recordId: event.data.id });
    });

  let inFlight = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/talentforge") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(secret, req.headers, body);
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
  const server = createServer((req, res) => {
    inFlight += 1;
    handle(req, res)
      .catch((err) => {
        console.error(err instanceof Error ? err.message : err);
        if (!res.headersSent) reply(res, 500, { error: "internal error" });
      })
      .finally(() => (inFlight -= 1));
  });
  server.listen(port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${port}`));
  const stop = async () => {
    server.close();
    server.closeIdleConnections();
    const deadline = Date.now() + 1500;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    clearInterval(watch);
    await chain;
    // Held events stay on disk when the cut-over has not finished; the next start replays them.
    if (holding) await serial(replay).catch((err) => console.error(`replaying held events: ${err instanceof Error ? err.message : err}`));
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void> | void> = {
  sync,
  serve,
  cutover: () => catchUp("cutover", (s) => s.markCutover()),
  reconcile: () => catchUp("reconcile"),
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
