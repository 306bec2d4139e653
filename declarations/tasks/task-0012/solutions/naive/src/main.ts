// TalentForge mirror, moved onto webhooks as the TalentForge docs describe them.
// Commands: sync (the nightly poll), serve (webhook listener), cutover, reconcile.
import { createHmac, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { ENTITIES, LIST_PATHS, Mirror, type Entity } from "./mirror.ts";
import { TalentForge, clientConfig, type ApiRecord } from "./talentforge.ts";

const outDir = () => process.env.OUTPUT_DIR ?? "output";
const EVENTS = ".webhook-events.json";

/**
 * A poll from the watermarks: the docs' changelog (2.1) says the incremental
 * filter is now `updated_since`, records changed at or after the given time.
 */
async function poll(useDocsFilter: boolean): Promise<void> {
  const mirror = new Mirror(outDir());
  const client = new TalentForge(clientConfig());
  for (const entity of ENTITIES) {
    const mark = mirror.poll.watermarks[entity];
    const baseline = mark === null;
    const records = await client.list(LIST_PATHS[entity], baseline ? {} : { [useDocsFilter ? "updated_since" : "modified_since"]: mark });
    let changed = 0;
    for (const r of records) if (mirror.apply(entity, r, "poll", null, !baseline)) changed += 1;
    mirror.poll.watermarks[entity] = records.reduce<string | null>((m, r) => (m === null || Date.parse(String(r.updated_at)) > Date.parse(m) ? String(r.updated_at) : m), mark);
    console.error(`${entity}: ${records.length} read, ${changed} changes`);
  }
  mirror.save();
}

/** Signature per the docs: hex HMAC-SHA256 of `<timestamp>.<body>`, timestamp within five minutes. */
function verify(secret: string, req: IncomingMessage, body: string): boolean {
  const ts = String(req.headers["x-tf-timestamp"] ?? "");
  const sig = String(req.headers["x-tf-signature"] ?? "");
  if (!/^\d+$/.test(ts) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  const want = createHmac("sha256", secret).update(`${ts}.${body}`).digest();
  const got = /^[0-9a-f]+$/i.test(sig) ? Buffer.from(sig, "hex") : Buffer.alloc(0);
  return got.length === want.length && timingSafeEqual(got, want);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function serve(): void {
  const secret = process.env.TALENTFORGE_WEBHOOK_SECRET ?? "";
  const client = new TalentForge(clientConfig());
  const eventsPath = join(outDir(), EVENTS);
  let chain: Promise<unknown> = Promise.resolve();

  // One event at a time; the mirror is reloaded from disk each time so the cut-over's work is kept.
  const take = (id: string, entity: Entity, recordId: string) => {
    const next = chain.then(async () => {
      const seen: string[] = existsSync(eventsPath) ? JSON.parse(readFileSync(eventsPath, "utf8")) : [];
      if (seen.includes(id)) return;
      const r = await client.get(`${LIST_PATHS[entity]}/${encodeURIComponent(recordId)}`);
      const mirror = new Mirror(outDir());
      if (r.status === 200) mirror.apply(entity, r.body as ApiRecord, "webhook", id);
      mirror.save();
      seen.push(id);
      mkdirSync(outDir(), { recursive: true });
      writeFileSync(`${eventsPath}.tmp`, JSON.stringify(seen));
      renameSync(`${eventsPath}.tmp`, eventsPath);
    });
    chain = next.catch((err) => console.error(`event ${id}: ${err instanceof Error ? err.message : err}`));
    return chain;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (req.method === "GET" && req.url === "/") return send(200, { ok: true });
    if (req.method !== "POST" || req.url !== "/webhooks/talentforge") return send(404, { error: "not found" });
    const body = await readBody(req);
    if (!verify(secret, req, body)) return send(401, { error: "bad signature" });
    const event = JSON.parse(body) as { id: string; type: string; data: { id: string } };
    const entity = event.type.split(".")[0] as Entity;
    if (ENTITIES.includes(entity)) await take(event.id, entity, event.data.id);
    // Acknowledge in any case: the reconciliation poll catches up anything that failed.
    send(200, { ok: true });
  };
  const server = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
  server.listen(Number(process.env.SERVE_PORT ?? 8080), "127.0.0.1");
  process.once("SIGTERM", () => {
    server.close();
    void chain.then(() => process.exit(0));
  });
}

const command = process.argv[2];
const commands: Record<string, () => Promise<void> | void> = {
  sync: () => poll(false),
  serve,
  cutover: () => poll(true),
  reconcile: () => poll(true),
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
