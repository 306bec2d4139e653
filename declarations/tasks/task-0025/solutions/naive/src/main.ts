// Larkfield onboarding: TalentForge hires into Onboardly packets, exactly once each.
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { join } from "node:path";
import { type Config, loadConfig } from "./config.ts";
import { Ledger } from "./ledger.ts";
import { Onboardly } from "./onboardly.ts";
import { GO_LIVE_MS, isHire, provision } from "./provision.ts";
import { verifyDelivery } from "./signature.ts";
import { type ApiRecord, TalentForge } from "./talentforge.ts";

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
 * The listener: verify, acknowledge at once (TalentForge gives a delivery five seconds), then act on
 * the events one at a time behind the answers; an event is remembered only once it has been acted
 * on, and one that failed is left to the reconcile.
 */
function serve(config: Config): void {
  const tf = new TalentForge(config);
  const ob = new Onboardly(config.onboardly);
  const ledger = new Ledger();
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = chain.then(fn);
    chain = next.catch(() => undefined);
    return next;
  };
  const take = (event: { id: string; type: string; data: { id: string } }) =>
    serial(async () => {
      if (ledger.seen(event.id)) return "duplicate";
      if (event.type.startsWith("application.")) {
        const got = await tf.get(`/rest/applications/${encodeURIComponent(event.data.id)}`);
        if (got.status === 200 && isHire(got.body as ApiRecord)) await provision(tf, ob, ledger, got.body as ApiRecord);
      }
      ledger.rememberEvent(event.id);
      return "taken";
    });

  let inFlight = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return reply(res, 200, { ok: true });
    if (path !== "/webhooks/talentforge") return reply(res, 404, { error: "not found" });
    if (req.method !== "POST") return reply(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const problem = verifyDelivery(config.webhookSecret, req.headers, body);
    if (problem) return reply(res, problem.includes("signature") ? 401 : 400, { error: problem });
    let event: { id: string; type: string; data: { id: string } };
    try {
      event = JSON.parse(body);
      if (typeof event.id !== "string" || typeof event.type !== "string" || typeof event.data?.id !== "string") throw new Error("shape");
    } catch {
      return reply(res, 400, { error: "not a TalentForge event" });
    }
    reply(res, 200, { ok: true });
    take(event).catch((err) => console.error(`event ${event.id}: ${err instanceof Error ? err.message : err}`));
  };
  const server = createServer((req, res) => {
    inFlight += 1;
    handle(req, res)
      .catch(() => {
        if (!res.headersSent) reply(res, 500, { error: "internal error" });
      })
      .finally(() => (inFlight -= 1));
  });
  server.listen(config.port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${config.port}`));
  const stop = async () => {
    server.close();
    server.closeIdleConnections();
    const deadline = Date.now() + 5000;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await chain;
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
}

/** The night's repair: every hire since go-live the listener did not finish, then the ledger as Onboardly holds it. */
async function reconcile(config: Config): Promise<void> {
  const tf = new TalentForge(config);
  const ob = new Onboardly(config.onboardly);
  const ledger = new Ledger();
  // The documented incremental filter: applications changed since go-live.
  const since = new Date(GO_LIVE_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
  const apps = (await tf.list("/rest/applications", { updated_since: since })).filter((a) => a.stage === "hired" && a.is_deleted !== true);
  for (const app of apps.sort((a, b) => (a.id < b.id ? -1 : 1))) await provision(tf, ob, ledger, app);
  const rows = ledger
    .hires()
    .filter((h) => h.uploaded)
    .sort((a, b) => (a.application_id < b.application_id ? -1 : 1))
    .map((h) => ({ application_id: h.application_id, candidate_id: h.candidate_id, packet_id: h.packet_id, signer_id: h.signer_id, document_id: h.document_id }));
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "onboarding_ledger.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`${rows.length} hires provisioned since go-live`);
}

const command = process.argv[2];
if (command === "serve") serve(loadConfig({ listener: true }));
else if (command === "reconcile")
  reconcile(loadConfig()).catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
else {
  console.error("usage: node src/main.ts serve|reconcile");
  process.exit(2);
}
