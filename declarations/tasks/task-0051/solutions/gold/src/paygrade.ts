/**
 * PayGrade's PayrollGateway (SOAP 1.1): one POST per operation, answers and
 * failures as envelopes. Waits out 429 and 503 as told, retries server faults
 * and answers that break off before their body is complete, and throws a
 * GatewayFault for client faults (the request was at fault). Lists are live
 * (records changed while one is paged move in it), so a list is read again
 * until one pass holds as many distinct records as its total.
 */
import type { Config } from "./config.ts";

const NS = "http://paygrade.example/payroll/2011/";
const PATH = "/services/PayrollGateway.asmx";
/** The largest page PayGrade serves (the docs say 500; a larger count is refused). */
export const PAGE = 100;
const MAX_WAIT_S = 60;
const ATTEMPTS = 6;
/** Passes over a list before giving up on it settling. */
const PASSES = 8;

export class GatewayFault extends Error {
  readonly faultcode: string;
  readonly code: string;
  constructor(faultcode: string, code: string, message: string) {
    super(message);
    this.faultcode = faultcode;
    this.code = code;
  }
}

export type Fields = Record<string, string | null>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function xmlEscape(v: string): string {
  return v.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function xmlUnescape(v: string): string {
  return v.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const k = e.toLowerCase();
    if (k.startsWith("#x")) return String.fromCodePoint(Number.parseInt(k.slice(2), 16));
    if (k.startsWith("#")) return String.fromCodePoint(Number.parseInt(k.slice(1), 10));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[k] ?? _;
  });
}

/** The simple child elements of an element's text: text unescaped, `xsi:nil` as null. */
export function fields(xml: string): Fields {
  const out: Fields = {};
  for (const m of xml.matchAll(/<([A-Za-z_][\w.-]*)((?:\s+[^>]*?)?)(?:\/>|>([^<]*)<\/\1>)/g)) {
    const nil = /\bnil="(true|1)"/.test(m[2] ?? "");
    out[m[1]] = nil ? null : xmlUnescape(m[3] ?? "");
  }
  return out;
}

/** Repeated elements named `tag` inside `xml`, each as its inner text. */
export function items(xml: string, tag: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
}

export class PayGrade {
  calls = 0;
  private readonly config: Config;
  constructor(config: Config) {
    this.config = config;
  }

  /** Calls an operation; returns the inner XML of its `<OperationResponse>`. */
  async call(operation: string, params: Record<string, string | number | undefined>): Promise<string> {
    const body = Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `<${k}>${xmlEscape(String(v))}</${k}>`)
      .join("");
    const envelope = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${operation} xmlns="${NS}">${body}</${operation}></soap:Body></soap:Envelope>`;
    let last = "";
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      this.calls++;
      let res: Response;
      let text: string;
      try {
        res = await fetch(this.config.baseUrl + PATH, {
          method: "POST",
          headers: { "content-type": "text/xml; charset=utf-8", soapaction: `"${NS}${operation}"`, "x-pg-app-token": this.config.appToken },
          body: envelope,
        });
        // The body is read inside the retry: an answer can break off part-way through it.
        text = await res.text();
      } catch (err) {
        last = `${operation}: ${(err as Error).message}`;
        await sleep(250 * attempt);
        continue;
      }
      if (res.status === 429 || res.status === 503) {
        const wait = Number(res.headers.get("retry-after") ?? "1");
        if (wait > MAX_WAIT_S) throw new Error(`${operation}: PayGrade asked us to wait ${wait}s`);
        last = `${operation}: HTTP ${res.status}`;
        await sleep(Math.max(1, Number.isFinite(wait) ? wait : 1) * 1000);
        continue;
      }
      const fault = text.match(/<soap:Fault>([\s\S]*?)<\/soap:Fault>/);
      if (fault) {
        const f = fields(fault[1]);
        const code = fault[1].match(/<code>([^<]*)<\/code>/)?.[1] ?? "";
        const faultcode = f.faultcode ?? "";
        if (faultcode.endsWith("Client")) throw new GatewayFault(faultcode, code, f.faultstring ?? "client fault");
        last = `${operation}: ${faultcode} ${f.faultstring ?? ""}`;
        await sleep(250 * attempt);
        continue;
      }
      if (!res.ok) {
        last = `${operation}: HTTP ${res.status}`;
        await sleep(250 * attempt);
        continue;
      }
      const m = text.match(new RegExp(`<${operation}Response[^>]*>([\\s\\S]*)</${operation}Response>`));
      if (!m) throw new Error(`${operation}: no ${operation}Response in the answer`);
      return m[1];
    }
    throw new Error(`${operation} failed after ${ATTEMPTS} attempts (${last})`);
  }

  /**
   * Every record of a list operation. The list can move while it is paged (a record
   * changed mid-read moves, shifting the offsets), so a pass that holds fewer distinct
   * records than its total is read again, until one pass is whole.
   */
  async list(operation: string, tag: string, extra: Record<string, string | undefined> = {}): Promise<Fields[]> {
    const key = (f: Fields) => `${f.record_type ?? tag}:${f[`${tag}_id`] ?? f.id}`;
    let short = "";
    for (let pass = 1; pass <= PASSES; pass++) {
      const seen = new Map<string, Fields>();
      let total = 0;
      for (let start = 0; ; start += PAGE) {
        const xml = await this.call(operation, { ...extra, start, count: PAGE });
        const page = items(xml, tag).map(fields);
        for (const f of page) seen.set(key(f), f);
        total = Number(xml.match(/<total_records>(\d+)<\/total_records>/)?.[1] ?? "0");
        if (!page.length || start + PAGE >= total) break;
      }
      if (seen.size >= total) return [...seen.values()];
      short = `${seen.size} distinct of ${total}`;
    }
    throw new Error(`${operation}: the list kept moving while it was read (${short} after ${PASSES} passes)`);
  }
}
