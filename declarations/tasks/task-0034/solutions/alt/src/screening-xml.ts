/**
 * A ScreeningXml client. Every answer is read for its `status`: Vettly puts failures,
 * an expired or revoked token included, inside a 200. Tokens come from OAuth client
 * credentials (alt: a fresh grant whenever Vettly refuses the token, no refresh tokens).
 */
const NS = "urn:vettly:screening:1";
const AUTH_CODES = new Set(["invalid_token", "token_expired", "token_revoked", "unauthorized"]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface XmlConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export class XmlCallError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(`${code}: ${message}`);
    this.code = code;
  }
}

function decode(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e.startsWith("#x")) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith("#")) return String.fromCodePoint(Number(e.slice(1)));
    return { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" }[e] ?? "";
  });
}

const encode = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The child elements of a record element as text, or null for `xsi:nil="true"`. */
export function recordFields(xml: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const m of xml.matchAll(/<([A-Za-z_][\w.-]*)(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1>)/g)) {
    const [, name, attrs, body] = m;
    out[name] = attrs && /xsi:nil="(true|1)"/.test(attrs) ? null : decode(body ?? "");
  }
  return out;
}

export class ScreeningXml {
  private readonly config: XmlConfig;
  private access: string | null = null;

  constructor(config: XmlConfig) {
    this.config = config;
  }

  private async token(form: Record<string, string>): Promise<{ ok: true } | { ok: false; status: number; body: string }> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
      const body = await res.text();
      if (res.status === 429 && attempt < 6) {
        await sleep(Math.max(1, Number(res.headers.get("retry-after")) || 1) * 1000);
        continue;
      }
      if (!res.ok) return { ok: false, status: res.status, body };
      const t = JSON.parse(body) as { access_token: string };
      this.access = t.access_token;
      return { ok: true };
    }
  }

  private async grant(): Promise<void> {
    const r = await this.token({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    if (!r.ok) throw new Error(`client_credentials grant refused: ${r.status} ${r.body.slice(0, 200)}`);
  }

  /** Alt: never exchanges refresh tokens; every renewal is a fresh client_credentials grant. */
  private async renew(): Promise<void> {
    await this.grant();
  }

  /** One call; the inner XML of the `<Response>` on success, an `XmlCallError` for a failure Vettly reports. */
  async call(operation: string, params: Record<string, string>): Promise<string> {
    const body = `<?xml version="1.0" encoding="utf-8"?>\n<Request xmlns="${NS}" operation="${operation}">${Object.entries(params)
      .map(([k, v]) => `<${k}>${encode(v)}</${k}>`)
      .join("")}</Request>`;
    let renewals = 0;
    for (let attempt = 0; ; attempt++) {
      if (!this.access) await this.grant();
      const res = await fetch(`${this.config.baseUrl}/xml/screening`, {
        method: "POST",
        headers: { "Content-Type": "application/xml; charset=utf-8", Authorization: `Bearer ${this.access}` },
        body,
      });
      const xml = await res.text();
      if (res.status === 429 || res.status === 503) {
        const wait = Number(res.headers.get("retry-after"));
        if (attempt >= 10) throw new XmlCallError(`http_${res.status}`, "Vettly kept refusing the call");
        await sleep((Number.isFinite(wait) && wait > 0 ? wait : Math.min(2 ** attempt, 8)) * 1000);
        continue;
      }
      if (res.status !== 200) throw new XmlCallError(`http_${res.status}`, xml.slice(0, 200));
      const status = /<Response\b[^>]*\sstatus="(\w+)"/.exec(xml)?.[1];
      if (status === "ok") return /<Response\b[^>]*>([\s\S]*)<\/Response>/.exec(xml)?.[1] ?? "";
      const code = /<Error\b[^>]*\scode="([^"]*)"/.exec(xml)?.[1] ?? "error";
      const message = decode(/<message>([\s\S]*?)<\/message>/.exec(xml)?.[1] ?? "the call failed");
      if (AUTH_CODES.has(code) && renewals < 3) {
        renewals += 1;
        await this.renew();
        continue;
      }
      throw new XmlCallError(code, message);
    }
  }
}
