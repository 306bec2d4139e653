import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { loadConfig, type Config } from "./config.ts";
import { dump, ENTITIES, load, markDeleted, put, save, type Entity } from "./store.ts";
import { TalentLoopClient } from "./talentloop-client.ts";

const PATHS: Record<Entity, string> = { candidate: "/v1/candidates", application: "/v1/applications" };

async function backfill(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const state = load(config.outputDir);
  for (const entity of ENTITIES) {
    state.mirror[entity] = {};
    for (const r of await client.listAll(PATHS[entity])) put(state, entity, r);
  }
  save(config.outputDir, state);
}

/** Catches up on changes since the last record seen; deleted records carry `deleted: true`. */
async function reconcile(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const state = load(config.outputDir);
  const since: Record<string, string> = state.watermark ? { updated_after: state.watermark } : {};
  for (const entity of ENTITIES) {
    for (const r of await client.listAll(PATHS[entity], since)) put(state, entity, r);
  }
  save(config.outputDir, state);
}

/** Standard Webhooks: HMAC-SHA256 of `id.timestamp.body`, base64, key from the whsec_ secret. */
function verified(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const id = String(headers["webhook-id"] ?? "");
  const ts = String(headers["webhook-timestamp"] ?? "");
  const sigs = String(headers["webhook-signature"] ?? "");
  if (!id || !ts || !sigs) return false;
  if (Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const expected = createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
    .update(`${id}.${ts}.${body}`)
    .digest();
  return sigs.split(" ").some((s) => {
    const given = Buffer.from(s.replace(/^v1,/, ""), "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function serve(config: Config): void {
  const state = load(config.outputDir);
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/") return void res.writeHead(200).end("ok");
    if (req.method !== "POST" || req.url !== "/webhooks/talentloop") return void res.writeHead(404).end();
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (!verified(config.webhookSecret, req.headers, body)) return void res.writeHead(401).end("bad signature");
      const event = JSON.parse(body) as { id: string; type: string; data: Record<string, unknown> };
      const [entity, action] = event.type.split(".") as [Entity, string];
      if (action === "deleted") markDeleted(state, entity, String(event.data.id));
      else put(state, entity, event.data);
      state.ledger.push({ event_id: event.id, type: event.type, source_id: String(event.data.id) });
      save(config.outputDir, state);
      res.writeHead(200).end("ok");
    });
  });
  server.listen(config.port, "127.0.0.1");
  process.on("SIGTERM", () => {
    save(config.outputDir, state);
    process.exit(0);
  });
}

const config = loadConfig();
const command = process.argv[2];
const commands: Record<string, () => Promise<void> | void> = {
  backfill: () => backfill(config),
  serve: () => serve(config),
  reconcile: () => reconcile(config),
  dump: () => dump(config.outputDir, load(config.outputDir)),
};
if (!commands[command]) {
  console.error("usage: node src/main.ts backfill|serve|reconcile|dump");
  process.exit(2);
}
Promise.resolve()
  .then(commands[command])
  .catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
