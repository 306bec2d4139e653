import type { Config } from "./config.ts";
import { HttpError, send } from "./http.ts";

/** A HireWire candidate as the API returns it. */
export interface HwCandidate {
  id: number;
  name: string;
  surname: string;
  email: string;
  role: string | null;
  stage: string;
  rating: number | null;
  created_at: number;
  updated_at: number;
}

/** Read-only HireWire client: after cut-over nothing is ever written to HireWire. */
export class HireWire {
  private readonly config: Config;
  constructor(config: Config) {
    this.config = config;
  }

  private async get(pathAndQuery: string): Promise<{ res: Response; body: unknown }> {
    const url = `${this.config.hirewireUrl}${pathAndQuery}`;
    const r = await send(url, { method: "GET", headers: { "X-API-Key": this.config.hirewireKey, Accept: "application/json" } }, { retryWrites: false });
    if (!r.res.ok) throw new HttpError("GET", url, r.res.status, r.body);
    return r;
  }

  /**
   * Every live candidate. Always a full crawl: HireWire deletes vanish without a
   * trace, so only a full list tells who is still there.
   */
  async candidates(): Promise<HwCandidate[]> {
    const rows: HwCandidate[] = [];
    for (let page = 1; ; page++) {
      const { res, body } = await this.get(`/v1/candidates?page=${page}&per_page=50`);
      const data = (body as { data: HwCandidate[]; total?: number }).data;
      rows.push(...data);
      const link = res.headers.get("link") ?? "";
      if (!/rel="?next"?/.test(link) || data.length === 0) break;
    }
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    return [...byId.values()].sort((a, b) => Number(a.id) - Number(b.id));
  }
}
