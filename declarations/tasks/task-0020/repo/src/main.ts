// TalentLoop mirror connector. Commands: backfill, serve, drain, dump.
import { createServer } from "node:http";

const COMMANDS = ["backfill", "serve", "drain", "dump"];
const command = process.argv[2];

if (!COMMANDS.includes(command)) {
  console.error(`usage: node src/main.ts ${COMMANDS.join("|")}`);
  process.exit(2);
}

if (command === "serve") {
  const port = Number(process.env.SERVE_PORT ?? 8080);
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
      return;
    }
    if (req.method === "POST" && req.url === "/webhooks/talentloop") {
      // TODO: verify, apply and acknowledge TalentLoop events.
      req.resume();
      res.writeHead(501, { "content-type": "application/json" }).end(JSON.stringify({ error: "not implemented" }));
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not found" }));
  });
  server.listen(port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${port}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
} else {
  console.error(`${command}: not implemented yet`);
  process.exit(1);
}
