import { createHash } from "node:crypto";
import type { Config } from "./config.ts";

const NS = "urn:rosterly:timeclock:2016";
const SOAP_PATH = "/soap/TimeClock.svc";
const PAGE = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One Rosterly session: sign-in, its cookie and CSRF token, renewed when Rosterly ends it. */
export class Rosterly {
  private cookie = "";
  private csrf = "";
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  private async login(): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const { res, text } = await this.send(`${this.config.baseUrl}/api/v3/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: this.config.username, password: this.config.password }),
      });
      if (res.ok) {
        const body = JSON.parse(text) as { csrf: string };
        const sid = (res.headers.getSetCookie?.() ?? [res.headers.get("set-cookie") ?? ""]).map((c) => c.split(";")[0]).find((c) => c.startsWith("rly_sid="));
        if (!sid) throw new Error("sign-in answered without a rly_sid cookie");
        this.cookie = sid;
        this.csrf = body.csrf;
        return;
      }
      if (!(await this.waitAfter(res, attempt))) throw new Error(`sign-in failed: ${res.status}`);
    }
  }

  /**
   * One call on the wire: its answer and the answer's whole body. A call that gets no answer, or an
   * answer whose body breaks off part-way (Rosterly's load balancer drops connections now and then),
   * did not reach us whatever its status: it is made again, a write with the same Idempotency-Key.
   */
  private async send(url: string, init: RequestInit): Promise<{ res: Response; text: string }> {
    for (let attempt = 0; ; attempt++) {
      let res: Response | null = null;
      try {
        res = await fetch(url, init);
        return { res, text: await res.text() };
      } catch (err) {
        if (attempt >= 4) throw err;
        await sleep(200 * 2 ** attempt);
      }
    }
  }

  /** Waits as a retryable answer asks; false when the answer is not one to retry. */
  private async waitAfter(res: Response, attempt: number): Promise<boolean> {
    if (attempt >= 6) return false;
    if (res.status === 429 || res.status === 503) {
      const s = Number(res.headers.get("retry-after"));
      await sleep((Number.isFinite(s) && s > 0 ? s : 1) * 1000);
      return true;
    }
    if (res.status >= 500) {
      await sleep(200 * 2 ** attempt);
      return true;
    }
    return false;
  }

  /** A request with the session, signing in again when Rosterly ends it, retrying what is retryable. */
  async request(path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; text: string }> {
    if (!this.cookie) await this.login();
    for (let attempt = 0; ; attempt++) {
      const { res, text } = await this.send(`${this.config.baseUrl}${path}`, { ...init, headers: { ...init.headers, cookie: this.cookie, "x-rosterly-csrf": this.csrf } });
      if (res.status === 401 && attempt < 3) {
        await this.login();
        continue;
      }
      if (res.ok || (res.status < 500 && res.status !== 429)) {
        if (!res.ok) throw new Error(`${init.method} ${path}: ${res.status} ${text.slice(0, 300)}`);
        return { status: res.status, text };
      }
      if (res.status === 500 && path === SOAP_PATH && text.includes("soap:Client")) throw new Error(`${path}: ${text.slice(0, 300)}`);
      if (!(await this.waitAfter(res, attempt))) throw new Error(`${init.method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    }
  }

  private async soap(operation: string, params: Record<string, string | number>): Promise<string> {
    const inner = Object.entries(params)
      .map(([k, v]) => `<${k}>${v}</${k}>`)
      .join("");
    const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${operation} xmlns="${NS}">${inner}</${operation}></soap:Body></soap:Envelope>`;
    const res = await this.request(SOAP_PATH, { method: "POST", headers: { "content-type": "text/xml; charset=utf-8", soapaction: `"${NS}/${operation}"` }, body });
    return res.text;
  }

  /**
   * Every shift once, page by page, through TimeClockService. The rota changes while it is read
   * (Rosterly's lists move under an offset crawl), so a crawl that ends with fewer distinct shifts
   * than the list's `total` is read again, keeping every shift it met.
   */
  async shifts(): Promise<Record<string, string>[]> {
    const byId = new Map<string, Record<string, string>>();
    let total = 0;
    for (let pass = 0; pass < 4; pass++) {
      for (let offset = 0; ; ) {
        const xml = await this.soap("ListShifts", { limit: PAGE, offset });
        const items = [...xml.matchAll(/<shift>([\s\S]*?)<\/shift>/g)].map((m) => fields(m[1]));
        for (const s of items) byId.set(s.id, s);
        total = Number(/<total>(\d+)<\/total>/.exec(xml)?.[1] ?? 0);
        const next = /<next_offset>(\d+)<\/next_offset>/.exec(xml);
        if (!next || !items.length) break;
        offset = Number(next[1]);
      }
      if (total <= byId.size) return [...byId.values()];
    }
    throw new Error(`the rota kept moving: ${byId.size} distinct shifts read, ListShifts says ${total}`);
  }

  /**
   * Every staff file, once each. HR edits files while the job reads them, so an offset crawl can
   * meet a file twice and step over another; a crawl that ends with fewer distinct files than the
   * list's `total` is read again, keeping every file it met.
   */
  async workers(): Promise<{ id: string; employment_type: string }[]> {
    const byId = new Map<string, { id: string; employment_type: string }>();
    let total = 0;
    for (let pass = 0; pass < 4; pass++) {
      for (let offset = 0; ; ) {
        const res = await this.request(`/api/v3/workers?limit=${PAGE}&offset=${offset}`, { method: "GET" });
        const page = JSON.parse(res.text) as { items: { id: string; employment_type: string }[]; total: number; next_offset: number | null };
        for (const w of page.items) byId.set(w.id, w);
        total = page.total;
        if (page.next_offset === null || page.next_offset === undefined || !page.items.length) break;
        offset = page.next_offset;
      }
      if (byId.size >= total) return [...byId.values()];
    }
    throw new Error(`the workers list kept moving: ${byId.size} distinct files read, the list says ${total}`);
  }

  /** The texts of the notes on a worker's file. */
  async noteTexts(workerId: string): Promise<string[]> {
    const texts: string[] = [];
    for (let offset = 0; ; ) {
      const res = await this.request(`/api/v3/workers/${encodeURIComponent(workerId)}/notes?limit=${PAGE}&offset=${offset}`, { method: "GET" });
      const page = JSON.parse(res.text) as { items: { body: string }[]; next_offset: number | null };
      texts.push(...page.items.map((n) => n.body));
      if (page.next_offset === null || page.next_offset === undefined || !page.items.length) return texts;
      offset = page.next_offset;
    }
  }

  /** Adds a managers-only note; the key makes a retry (or a rerun) the same note. */
  async addNote(workerId: string, text: string): Promise<void> {
    const key = createHash("sha256").update(`${workerId}\n${text}`).digest("hex");
    await this.request(`/api/v3/workers/${encodeURIComponent(workerId)}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": key },
      body: JSON.stringify({ body: text, visibility: "managers", author: "Payroll bridge" }),
    });
  }
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");

function fields(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<([A-Za-z_]+)(?:\s[^>]*)?(?:\/>|>([\s\S]*?)<\/\1>)/g)) out[m[1]] = unescapeXml(m[2] ?? "");
  return out;
}
