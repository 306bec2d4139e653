// TalentForge change feed. Commands: sync, serve.
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { TalentForgeApi } from "./api.ts";
import { KINDS, Mirror, type Kind } from "./mirror.ts";

const LIST: Record<Kind, string> = { candidate: "/rest/candidates", application: "/rest/applications" };

async function sync(): Promise<void> {
  const api = new TalentForgeApi();
  const mirror = new Mirror();
  for (const kind of KINDS) {
    if (!mirror.synced) {
      for (const rec of await api.listAll(LIST[kind])) mirror.load(kind, rec);
      continue;
    }
    // Incremental read: the docs name the filter updated_since (records changed at or after it).
    const since = mirror.newest(kind);
    for (const rec of await api.listAll(LIST[kind], since ? { updated_since: since } : {})) mirror.apply(kind, rec, "poll", null);
  }
  mirror.finishSync();
  mirror.save();
}

/** X-TF-Signature is the hex HMAC-SHA256 of `<timestamp>.<body>`; refuse timestamps more than 300 s away. */
function verified(headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const ts = String(headers["x-tf-timestamp"] ?? "");
  const sig = String(headers["x-tf-signature"] ?? "");
  if (!ts || !sig || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  return (
    createHmac("sha256", process.env.TALENTFORGE_WEBHOOK_SECRET ?? "")
      .update(`${ts}.${body}`)
      .digest("hex") === sig
  );
}

function serve(): void {
  const api = new TalentForgeApi();
  const mirror = new Mirror();
  let queue: Promise<unknown> = Promise.resolve();

  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/") {
      res.writeHead(200).end("ok");
      return;
    }
    if (req.method !== "POST" || req.url !== "/webhooks/talentforge") {
      res.writeHead(404).end();
      return;
    }
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (!verified(req.headers, body)) {
        res.writeHead(401).end();
        return;
      }
      const event = JSON.parse(body) as { id: string; type: string; data: { id: string } };
      const job = queue.then(async () => {
        if (mirror.seen(event.id)) return;
        const kind = event.type.split(".")[0] as Kind;
        if (KINDS.includes(kind)) {
          const rec = await api.getRecord(`${LIST[kind]}/${event.data.id}`);
          mirror.apply(kind, rec, "webhook", event.id);
        }
        mirror.markSeen(event.id);
        mirror.save();
      });
      queue = job.catch(() => undefined);
      job.then(
        () => res.writeHead(200).end(),
        (err) => {
          console.error(`event ${event.id}: ${err.message}`);
          res.writeHead(500).end();
        },
      );
    });
  });
  server.listen(Number(process.env.SERVE_PORT), "127.0.0.1");
  process.on("SIGTERM", () => {
    server.close();
    queue.then(() => {
      mirror.save();
      process.exit(0);
    });
  });
}

const command = process.argv[2];
if (command === "sync") {
  sync().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
} else if (command === "serve") {
  serve();
} else {
  console.error("usage: node src/main.ts sync|serve");
  process.exit(2);
}
