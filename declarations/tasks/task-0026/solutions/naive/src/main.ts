import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "./config.ts";

// Naive: written from Vettly's (stale) docs. Page tokens "stay valid for the 1000 requests
// after the page that issued them, long enough to pause a crawl and pick it up again later
// with the saved token", and the server time of a response is "the watermark for the next
// incremental read": so progress (list, page token, watermark) is saved after every page.

interface Row {
  source_id: string;
  data: Record<string, unknown>;
  updated_at: unknown;
  is_deleted: boolean;
}
interface Progress {
  watermark: string | null;
  since: string | null;
  list: number;
  pageToken: string | null;
}

const LISTS = [
  { path: "/v1/subjects", file: "subjects.json", type: "subject" },
  { path: "/v1/checks", file: "checks.json", type: "check" },
  { path: "/v1/reports", file: "reports.json", type: "report" },
];

const config = loadConfig();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const statePath = join(config.outputDir, "progress.json");
let token: string | null = null;
let serverTime: string | null = null;

function load(file: string): Map<string, Row> {
  const p = join(config.outputDir, file);
  return existsSync(p) ? new Map((JSON.parse(readFileSync(p, "utf8")) as Row[]).map((r) => [r.source_id, r])) : new Map();
}
function save(file: string, rows: Map<string, Row>): void {
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, file), JSON.stringify([...rows.values()].sort((a, b) => (a.source_id < b.source_id ? -1 : 1))));
}
function saveProgress(p: Progress): void {
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(statePath, JSON.stringify(p));
}

async function call(path: string, query: URLSearchParams): Promise<Record<string, unknown>> {
  for (;;) {
    if (!token) {
      const res = await fetch(`${config.baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: config.clientId, client_secret: config.clientSecret }),
      });
      if (!res.ok) throw new Error(`token: ${res.status}`);
      token = ((await res.json()) as { access_token: string }).access_token;
    }
    const res = await fetch(`${config.baseUrl}${path}?${query}`, { headers: { Authorization: `Bearer ${token}` } });
    serverTime = res.headers.get("x-vettly-server-time") ?? serverTime;
    if (res.ok) return (await res.json()) as Record<string, unknown>;
    if (res.status === 401) {
      token = null;
      continue;
    }
    const wait = Number(res.headers.get("retry-after") ?? 1);
    if (res.status === 503 && wait > 60) {
      console.error(`Vettly is down for maintenance (retry in ${wait} s): stopping`);
      process.exit(3);
    }
    if (res.status === 429 || res.status >= 500) {
      await sleep(wait * 1000);
      continue;
    }
    throw new Error(`${path}: ${res.status} ${await res.text()}`);
  }
}

async function main(): Promise<void> {
  const progress: Progress = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : { watermark: null, since: null, list: 0, pageToken: null };
  if (progress.list === 0 && progress.pageToken === null) progress.since = progress.watermark;
  for (; progress.list < LISTS.length; progress.list++, progress.pageToken = null) {
    const { path, file } = LISTS[progress.list];
    const rows = progress.since ? load(file) : progress.pageToken ? load(file) : new Map<string, Row>();
    do {
      const q = new URLSearchParams({ page_size: "100" });
      if (progress.since) q.set("modified_since", progress.since);
      if (progress.pageToken) q.set("page_token", progress.pageToken);
      const page = await call(path, q);
      for (const item of page.results as Record<string, unknown>[]) {
        const { id, ...data } = item;
        rows.set(String(id), { source_id: String(id), data, updated_at: item.updated_at, is_deleted: false });
      }
      save(file, rows);
      progress.pageToken = (page.next_page_token as string | null) ?? null;
      progress.watermark = serverTime;
      saveProgress(progress);
    } while (progress.pageToken);
  }
  if (progress.since) {
    const mirrors = new Map(LISTS.map((l) => [l.type, load(l.file)]));
    let pageToken: string | null = null;
    do {
      const q = new URLSearchParams({ page_size: "100", modified_since: progress.since });
      if (pageToken) q.set("page_token", pageToken);
      const page = await call("/v1/purges", q);
      for (const p of page.results as { id: string; object_type: string }[]) {
        const row = mirrors.get(p.object_type)?.get(p.id);
        if (row) row.is_deleted = true;
      }
      pageToken = (page.next_page_token as string | null) ?? null;
    } while (pageToken);
    for (const l of LISTS) save(l.file, mirrors.get(l.type)!);
  }
  saveProgress({ watermark: serverTime, since: null, list: 0, pageToken: null });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
