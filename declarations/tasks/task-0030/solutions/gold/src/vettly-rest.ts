/**
 * A small Vettly REST client that holds its own tokens (vaultd used to). Access tokens
 * come from client credentials; a refresh token is single-use (each exchange returns the
 * next) and, whatever the docs say, its chain ends 600 s after the grant that started it,
 * however often it is exchanged. Vettly may also revoke every token at once (refresh
 * tokens included). So: a 401 renews through the chain, and a refused exchange starts a
 * new chain with a fresh grant.
 */
export interface RestConfig {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

export type Item = Record<string, unknown> & { id: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class VettlyRest {
  private readonly config: RestConfig;
  private access: string | null = null;
  private refresh: string | null = null;

  constructor(config: RestConfig) {
    this.config = config;
  }

  private async token(form: Record<string, string>): Promise<{ ok: true } | { ok: false; status: number; body: string }> {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.config.baseUrl}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
      const body = await res.text();
      if ((res.status === 429 || res.status === 503) && attempt < 6) {
        await sleep(Math.max(1, Number(res.headers.get("retry-after")) || 1) * 1000);
        continue;
      }
      if (!res.ok) return { ok: false, status: res.status, body };
      const t = JSON.parse(body) as { access_token: string; refresh_token?: string };
      this.access = t.access_token;
      this.refresh = t.refresh_token ?? null;
      return { ok: true };
    }
  }

  private async grant(): Promise<void> {
    const r = await this.token({ grant_type: "client_credentials", client_id: this.config.clientId, client_secret: this.config.clientSecret });
    if (!r.ok) throw new Error(`client_credentials grant refused: ${r.status} ${r.body.slice(0, 200)}`);
  }

  /** A new access token: the refresh chain while Vettly takes it, else a new grant. */
  private async renew(): Promise<void> {
    if (this.refresh) {
      const presented = this.refresh;
      this.refresh = null;
      const r = await this.token({ grant_type: "refresh_token", refresh_token: presented });
      if (r.ok) return;
      console.error(`refresh refused (${r.status} ${r.body.slice(0, 120)}); starting a new token chain`);
    }
    await this.grant();
  }

  /** One GET; waits as a 429 or 503 asks. */
  async get(path: string, query: Record<string, string>): Promise<Record<string, unknown>> {
    const url = `${this.config.baseUrl}${path}?${new URLSearchParams(query)}`;
    let renewals = 0;
    for (let attempt = 0; ; attempt++) {
      if (!this.access) await this.grant();
      const res = await fetch(url, { headers: { Authorization: `Bearer ${this.access}`, Accept: "application/json" } });
      const body = await res.text();
      if (res.ok) return JSON.parse(body) as Record<string, unknown>;
      if (res.status === 401 && renewals < 4) {
        renewals += 1;
        await this.renew();
        continue;
      }
      if ((res.status === 429 || res.status === 503) && attempt < 10) {
        const wait = Number(res.headers.get("retry-after"));
        await sleep((Number.isFinite(wait) && wait > 0 ? wait : Math.min(2 ** attempt, 8)) * 1000);
        continue;
      }
      throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 300)}`);
    }
  }

  /** Every record of a list changed at or after `since`, following page tokens at once. */
  async changedSince(path: string, since: string): Promise<Item[]> {
    const items: Item[] = [];
    let pageToken: string | null = null;
    do {
      const query: Record<string, string> = { page_size: "100", modified_since: since };
      if (pageToken) query.page_token = pageToken;
      const page = await this.get(path, query);
      items.push(...((page.results as Item[]) ?? []));
      pageToken = (page.next_page_token as string | null) ?? null;
    } while (pageToken);
    return items;
  }
}
