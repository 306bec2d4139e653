import type { Config } from "./config.ts";

/** An answer from RecruitOS: status, parsed body (flat `errorCode` / `errorMessage` on errors) and headers. */
export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RETRYABLE = new Set([429, 500, 502, 503, 504]);
const ATTEMPTS = 5;

/**
 * RecruitOS's Open API v3 with one app token, reused while it works. A token can be
 * revoked before its time (401): mint a new one once and carry on.
 */
export class RecruitOS {
  private token: string | null = null;
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async mint(): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth2/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret }),
      });
      const body = (await res.json().catch(() => null)) as { access_token?: string; errorMessage?: string } | null;
      if (res.ok && body?.access_token) return body.access_token;
      if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) throw new Error(`RecruitOS token: ${res.status} ${body?.errorMessage ?? ""}`);
      await sleep(waitMs(res, attempt));
    }
  }

  /** A request; `headers` adds to the token (If-Match, Cache-Control). */
  async call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    let reminted = false;
    for (let attempt = 1; ; attempt++) {
      this.token ??= await this.mint();
      const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, ...opts.headers };
      if (opts.body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(`${this.config.baseUrl}${path}`, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
      const answer: Answer = { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
      if (res.status === 401 && !reminted) {
        reminted = true;
        this.token = null;
        continue;
      }
      if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) return answer;
      await sleep(waitMs(res, attempt));
    }
  }

  /** A download's text (a 5xx or a 401 retried like any call). */
  async text(url: string): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      this.token ??= await this.mint();
      const res = await fetch(url, { headers: { authorization: `Bearer ${this.token}` } });
      if (res.status === 200) return await res.text();
      if (res.status === 401 && attempt === 1) this.token = null;
      else if (!RETRYABLE.has(res.status) || attempt >= ATTEMPTS) throw new Error(`download ${url}: ${res.status}`);
      else await sleep(waitMs(res, attempt));
    }
  }

  /**
   * Every item of a list, page by page (offset paging, at most 100 a page). Records added while we
   * page shift the offsets, so a crawl can see a record twice and miss another: a read is whole
   * only when it holds as many distinct records as `totalCount`, else it is read again.
   */
  async listAll(path: string, query: Record<string, string> = {}): Promise<any[]> {
    for (let pass = 1; pass <= 5; pass++) {
      const items = new Map<string, any>();
      let total = 0;
      for (let offset = 0; ; ) {
        const page = await this.call("GET", `${path}?${new URLSearchParams({ ...query, limit: "100", offset: String(offset) })}`);
        if (page.status !== 200) throw new Error(`${path}: ${page.status} ${page.body?.errorMessage ?? ""}`);
        for (const item of page.body.items) items.set(String(item.id), item);
        total = page.body.totalCount;
        offset += page.body.items.length;
        if (!page.body.items.length || offset >= total) break;
      }
      if (items.size >= total) return [...items.values()];
      console.error(`${path}: read ${items.size} distinct records of ${total}; the list moved under us, reading it again`);
    }
    throw new Error(`${path}: could not read a whole list`);
  }
}

/** Retry-After when RecruitOS gives one (capped), else a short growing pause. */
function waitMs(res: Response, attempt: number): number {
  const after = Number(res.headers.get("retry-after"));
  return Number.isFinite(after) && after > 0 ? Math.min(after, 15) * 1000 : 250 * attempt;
}

/** One export job's file: its snapshot moment and its rows (header -> value). */
export interface ExportFile {
  requestedAt: number;
  rows: Record<string, string>[];
}

/**
 * Runs an export job to its file: request, poll the status until it is ready (readiness is
 * counted in status reads, not time), download, parse the RFC 4180 CSV.
 */
export async function runExport(api: RecruitOS, resource: string, modifiedSince: number | null): Promise<ExportFile> {
  const made = await api.call("POST", "/api/v3/reporting/exports", { body: { resource, ...(modifiedSince !== null ? { modifiedSince } : {}) } });
  if (made.status !== 202 && made.status !== 200) throw new Error(`export ${resource}: ${made.status} ${made.body?.errorMessage ?? ""}`);
  const id = String(made.body.id);
  for (let poll = 1; poll <= 20; poll++) {
    const job = await api.call("GET", `/api/v3/reporting/exports/${encodeURIComponent(id)}`);
    if (job.status !== 200) throw new Error(`export ${id}: ${job.status} ${job.body?.errorMessage ?? ""}`);
    if (job.body.status !== "ready") continue;
    const text = await api.text(String(job.body.downloadUrl));
    const [header, ...records] = parseCsv(text);
    return { requestedAt: Number(job.body.requestedAt), rows: records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""]))) };
  }
  throw new Error(`export ${id} was not ready after 20 status reads`);
}

/** Records of an RFC 4180 text: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF ends a record. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      record.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else field += ch;
  }
  if (field || record.length) records.push([...record, field]);
  return records;
}
