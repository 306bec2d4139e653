// TalentLoop freshness view for the recruiting-ops dashboard. Commands: sync, serve, poll.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type ApiRecord, TalentLoop } from "./client.ts";
import { type Config, loadConfig } from "./config.ts";
import { refuseDelivery } from "./signature.ts";
import { type Entity, View } from "./view.ts";

const COMMANDS = ["sync", "serve", "poll"];
/** The incremental filter the list endpoints honour (the docs' `updated_after` is ignored with a Warning). */
const SINCE_PARAM = "modified_since";

/** First load: every record of every entity, and the view started over. */
async function sync(config: Config): Promise<void> {
  const api = new TalentLoop(config);
  const view = new View(config.outputDir, { fresh: true });
  const lists: [Entity, string][] = [
    ["candidate", "/v1/candidates"],
    ["application", "/v1/applications"],
    ["job", "/v1/jobs"],
  ];
  for (const [entity, path] of lists) {
    for (const record of (await api.list(path)) ?? []) view.upsert(entity, record, "poll");
  }
  let notes = 0;
  for (const candidate of view.liveIds("candidate")) {
    const rows = await api.list(`/v1/candidates/${encodeURIComponent(candidate)}/notes`);
    for (const note of rows ?? []) if (view.upsert("note", note, "poll")) notes += 1;
  }
  view.poll("job").changed = view.liveIds("job").length;
  view.poll("note").changed = notes;
  view.save();
  console.error(`sync: ${view.liveIds("candidate").length} candidates, ${view.liveIds("application").length} applications, ${view.liveIds("job").length} jobs, ${notes} notes`);
}

/**
 * The scheduled refresh of what TalentLoop never pushes. Jobs are read from
 * their watermark with the filter the API really honours. Notes have no
 * filter at all: each live candidate's notes are read in full. A notes list
 * that says its candidate does not exist is the sign of a removal whose event
 * never came; the candidate's own read (410 Gone) confirms it before the view
 * drops it. Candidates and applications are left to the webhooks. Removed
 * jobs are found by one sweep of the job ids (`sweepJobs`).
 */
async function poll(config: Config): Promise<void> {
  const api = new TalentLoop(config);
  const view = new View(config.outputDir);
  const since = view.poll("job").watermark;
  const jobs = (await api.list("/v1/jobs", since ? { [SINCE_PARAM]: since } : {})) ?? [];
  let changedJobs = 0;
  for (const job of jobs) if (view.upsert("job", job, "poll")) changedJobs += 1;
  await sweepJobs(api, view);

  let changedNotes = 0;
  for (const candidate of view.liveIds("candidate")) {
    const rows = await api.list(`/v1/candidates/${encodeURIComponent(candidate)}/notes`);
    if (rows === null) {
      const { status } = await api.get(`/v1/candidates/${encodeURIComponent(candidate)}`);
      if (status === 410 || status === 404) {
        view.remove("candidate", candidate, "poll");
        console.error(`poll: candidate ${candidate} is gone (${status}); its delete event never arrived`);
      } else console.error(`poll: notes of ${candidate} not found but the candidate reads ${status}; left as is`);
      continue;
    }
    const listed = new Set(rows.map((r) => r.id));
    for (const note of rows) if (view.upsert("note", note, "poll")) changedNotes += 1;
    for (const held of view.rows("note")) {
      if (!held.is_deleted && held.data.candidate_id === candidate && !listed.has(held.source_id)) view.remove("note", held.source_id, "poll");
    }
  }
  view.poll("job").changed = changedJobs;
  view.poll("note").changed = changedNotes;
  view.save();
  console.error(`poll: ${changedJobs} jobs and ${changedNotes} notes new or changed`);
}

/**
 * "Removals included": a removed job drops out of TalentLoop's lists and of
 * `modified_since` reads, with no flag and no feed, and jobs have no webhook.
 * So each poll lists the job ids once; a job the view holds that the list no
 * longer has is read by id, and dropped only when TalentLoop answers that it
 * is gone (its own word, not an absence that a lagging page could explain).
 */
async function sweepJobs(api: TalentLoop, view: View): Promise<void> {
  const listed = new Set(((await api.list("/v1/jobs")) ?? []).map((j) => j.id));
  for (const id of view.liveIds("job")) {
    if (listed.has(id)) continue;
    const { status } = await api.get(`/v1/jobs/${encodeURIComponent(id)}`);
    if (status === 410 || status === 404) {
      view.remove("job", id, "poll");
      console.error(`poll: job ${id} is gone (${status})`);
    } else console.error(`poll: job ${id} missing from the list but reads ${status}; left as is`);
  }
}

interface Delivery {
  id?: unknown;
  type?: unknown;
  data?: { id?: unknown } & Record<string, unknown>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** Applies one verified delivery; duplicates and late, older versions change nothing. */
function apply(view: View, event: Delivery): void {
  const [entity, action] = String(event.type).split(".");
  if (entity !== "candidate" && entity !== "application") return;
  const id = event.data?.id;
  if (typeof id !== "string") return;
  if (action === "deleted") view.remove(entity, id, "webhook");
  else if (action === "created" || action === "updated") view.upsert(entity, event.data as ApiRecord, "webhook");
}

function serve(config: Config): void {
  const view = new View(config.outputDir);
  let dirty = false;
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method === "GET" && path === "/") return answer(res, 200, { ok: true });
    if (path !== "/webhooks/talentloop") return answer(res, 404, { error: "not found" });
    if (req.method !== "POST") return answer(res, 405, { error: "method not allowed" });
    const body = await readBody(req);
    const refused = refuseDelivery(config.webhookSecret, req.headers, body);
    if (refused) return answer(res, 401, { error: refused });
    let event: Delivery;
    try {
      event = JSON.parse(body) as Delivery;
    } catch {
      return answer(res, 400, { error: "body is not JSON" });
    }
    apply(view, event);
    dirty = true;
    answer(res, 200, { received: true });
  });
  const flush = setInterval(() => {
    if (dirty) {
      dirty = false;
      view.save();
    }
  }, 500);
  server.listen(config.port, "127.0.0.1", () => console.error(`listening on http://127.0.0.1:${config.port}`));
  process.on("SIGTERM", () => {
    clearInterval(flush);
    server.close();
    view.save();
    process.exit(0);
  });
}

const command = process.argv[2];
if (!COMMANDS.includes(command)) {
  console.error(`usage: node src/main.ts ${COMMANDS.join("|")}`);
  process.exit(2);
}
const config = loadConfig(command);
if (command === "serve") serve(config);
else
  (command === "sync" ? sync(config) : poll(config)).catch((err: unknown) => {
    console.error(`${command} failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
