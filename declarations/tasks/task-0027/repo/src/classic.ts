import type { Config } from "./config.ts";

/**
 * A client of the Bullpen Classic XML API (`/classic/xmlapi`), as the desktop sync
 * has used it since 2019: one `<Request operation="...">` per call, authenticated
 * with the integration's App Marketplace token. Failures come back inside a 200.
 */

const NS = "urn:bullpen:classic:2012";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ClassicError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

function decode(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e] ?? "");
}

function encode(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The fields of one record element, as the text in `<name>text</name>` (an element with no text, `<name/>`, is ""). */
function fields(xml: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of xml.matchAll(/<([A-Za-z_][\w.-]*)(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1>)/g)) out[m[1]] = decode(m[3] ?? "");
  return out;
}

export interface ClassicPage {
  records: Record<string, unknown>[];
  nextCursor: string | null;
  serverTime: string | null;
}

export class ClassicClient {
  private readonly config: Config;

  constructor(config: Config) {
    this.config = config;
  }

  /** One call; `recordTag` is the element each record comes in (`candidate`, `application`). */
  async call(operation: string, params: Record<string, string>, recordTag: string): Promise<ClassicPage> {
    const body = `<?xml version="1.0" encoding="utf-8"?>\n<Request xmlns="${NS}" operation="${operation}">${Object.entries(params)
      .map(([k, v]) => `<${k}>${encode(v)}</${k}>`)
      .join("")}</Request>`;
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/classic/xmlapi`, {
        method: "POST",
        headers: { "Content-Type": "application/xml; charset=utf-8", "X-Bullpen-App-Token": this.config.appToken },
        body,
      });
      const xml = await res.text();
      if (res.status === 429 || res.status === 503) {
        // Classic puts the wait in the error body.
        const wait = Number(/<retry_after_seconds>(\d+)<\/retry_after_seconds>/.exec(xml)?.[1] ?? res.headers.get("retry-after") ?? 5);
        if (attempt >= 5) throw new ClassicError(`http_${res.status}`, "Bullpen kept refusing the call");
        await sleep(wait * 1000);
        continue;
      }
      if (res.status !== 200) throw new ClassicError(`http_${res.status}`, xml.slice(0, 200));
      const status = /<Response[^>]*\sstatus="(\w+)"/.exec(xml)?.[1];
      if (status !== "ok") {
        const code = /<Error[^>]*\scode="([^"]*)"/.exec(xml)?.[1] ?? "error";
        throw new ClassicError(code, decode(/<message>([\s\S]*?)<\/message>/.exec(xml)?.[1] ?? "the call failed"));
      }
      const records = [...xml.matchAll(new RegExp(`<${recordTag}>([\\s\\S]*?)</${recordTag}>`, "g"))].map((m) => fields(m[1]));
      const next = /<next_cursor>([^<]*)<\/next_cursor>/.exec(xml)?.[1];
      return { records, nextCursor: next ? decode(next) : null, serverTime: res.headers.get("x-bullpen-server-time") };
    }
  }

  /** Every record a Search operation returns (changed after `since`, when given). */
  async search(operation: string, recordTag: string, since: string | null, onServerTime: (t: string) => void): Promise<Record<string, unknown>[]> {
    const all: Record<string, unknown>[] = [];
    let cursor: string | null = null;
    do {
      const params: Record<string, string> = { limit: "200" };
      if (since) params.modified_after = since;
      if (cursor) params.cursor = cursor;
      const page = await this.call(operation, params, recordTag);
      if (page.serverTime) onServerTime(page.serverTime);
      all.push(...page.records);
      cursor = page.nextCursor;
    } while (cursor);
    return all;
  }
}
