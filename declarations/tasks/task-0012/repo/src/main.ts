// TalentForge mirror. Commands: sync (the nightly poll), serve (webhook listener skeleton).
import { createServer } from "node:http";
import { ENTITIES, LIST_PATHS, Mirror } from "./mirror.ts";
import { TalentForge, clientConfig } from "./talentforge.ts";

/** The nightly poll: the first run loads the baseline, later runs read what changed since the watermark. */
async function sync(): Promise<void> {
  const outDir = process.env.OUTPUT_DIR ?? "output";
  const mirror = new Mirror(outDir);
  const client = new TalentForge(clientConfig());
  for (const entity of ENTITIES) {
    const mark = mirror.poll.watermarks[entity];
    const baseline = mark === null;
    const records = await client.list(LIST_PATHS[entity], baseline ? {} : { modified_since: mark });
    let changed = 0;
    for (const r of records) if (mirror.apply(entity, r, "poll", null, !baseline)) changed += 1;
    const newest = records.reduce<string | null>((m, r) => (m === null || Date.parse(String(r.updated_at)) > Date.parse(m) ? String(r.updated_at) : m), mark);
    mirror.poll.watermarks[entity] = newest;
    console.error(`${entity}: ${records.length} read, ${baseline ? "baseline" : `${changed} changes`}`);
  }
  mirror.save();
}

function serve(): void {
  const port = Number(process.env.SERVE_PORT ?? 8080);
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
      return;
    }
    if (req.method === "POST" && req.url === "/webhooks/talentforge") {
      // TODO: the webhook listener.
      req.resume();
      res.writeHead(501, { "content-type": "application/json" }).end(JSON.stringify({ error: "not implemented" }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
  });
  server.listen(port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

const command = process.argv[2];
if (command === "sync") {
  sync().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
} else if (command === "serve") {
  serve();
} else {
  console.error("usage: node src/main.ts sync|serve");
  process.exit(2);
}
