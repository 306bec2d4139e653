/**
 * @module client-traffic
 * The traffic `npm run bench` measures: what graders' scenarios and agents'
 * connectors send, not one request repeated. Each target cycles through
 * distinct requests: a crawl of every page of a list, single reads of every
 * record, a crawl of a vendor that authenticates with a minted bearer token,
 * and a crawl of a task world with its faults armed. Beside them, the hop
 * into a world's Durable Object (its unlogged `/_health`) is the ceiling.
 * The worlds run without the vendors' rate limits, which would answer most
 * of a bench's requests 429.
 */
import { findVendor } from "../../declarations/vendors/index.ts";

/** A target: an origin and the requests (path and query) sent to it in turn. */
export interface TrafficTarget {
  url: string;
  paths: string[];
  headers: Record<string, string>;
}

export interface ClientTraffic {
  /** The HireWire world the crawl and the distinct reads use (its log is counted). */
  world: string;
  hop: TrafficTarget;
  crawl: TrafficTarget;
  reads: TrafficTarget;
  tokenCrawl: TrafficTarget;
  faultedCrawl: TrafficTarget;
  /** A 50-row HireWire page, the example Prism serves. */
  examplePage: unknown;
}

type Made = { world: string; vendors: { ats: { baseUrl: string; credentials: Record<string, string> } } };

/** Pages of `limit` rows at `offset`s over `total` rows. */
const offsets = (total: number, limit: number) => Array.from({ length: Math.ceil(total / limit) }, (_, i) => i * limit);

/** A list page's total: the one number at the top of its envelope (`total`, `total_entries`, ...). */
function totalOf(page: unknown): number {
  const numbers = Object.values(page as Record<string, unknown>).filter((v) => typeof v === "number");
  if (numbers.length !== 1) throw new Error(`bench: no single total in ${JSON.stringify(page).slice(0, 300)}`);
  return numbers[0] as number;
}

function target(baseUrl: string, paths: string[], headers: Record<string, string>): TrafficTarget {
  const url = new URL(baseUrl);
  return { url: url.origin, paths: paths.map((p) => `${url.pathname}${p}`), headers };
}

export async function createClientTraffic(farmUrl: string, adminToken: string): Promise<ClientTraffic> {
  const control = async (method: string, path: string, body: unknown) => {
    const res = await fetch(`${farmUrl}${path}`, { method, headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`bench: ${method} ${path} answered ${res.status} ${await res.text()}`);
    return res.json();
  };
  const get = async (url: string, headers: Record<string, string>) => {
    const res = await fetch(url, { headers });
    if (res.status !== 200) throw new Error(`bench: GET ${url} answered ${res.status}`);
    return res.json() as Promise<any>;
  };

  // HireWire (static API key, page-numbered): every 50-row page, and every candidate read once per cycle.
  const hw = (await control("POST", "/v1/worlds", { vendors: { ats: "hirewire" }, seed: 1, scale: 8, rateLimits: false })) as Made;
  const hwKey = { "x-api-key": hw.vendors.ats.credentials.api_key };
  const first = await get(`${hw.vendors.ats.baseUrl}/v1/candidates?page=1&per_page=50`, hwKey);
  const pages = Array.from({ length: Math.ceil(totalOf(first) / 50) }, (_, i) => `/v1/candidates?page=${i + 1}&per_page=50`);
  const ids: string[] = [];
  for (const p of pages) for (const c of (await get(`${hw.vendors.ats.baseUrl}${p}`, hwKey)).data) ids.push(c.id);

  // Interviewly (OAuth client credentials, offset paging): a minted token, every 50-row page.
  const iv = (await control("POST", "/v1/worlds", { vendors: { ats: "interviewly" }, seed: 1, scale: 8, rateLimits: false })) as Made;
  const mint = await fetch(`${iv.vendors.ats.baseUrl}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    // The grant is the mint's own kind, read from the declaration (no file outside a mechanic names one).
    body: JSON.stringify({ grant_type: findVendor("interviewly")!.auth.mints[0]!.kind, client_id: iv.vendors.ats.credentials.client_id, client_secret: iv.vendors.ats.credentials.client_secret }),
  });
  if (!mint.ok) throw new Error(`bench: token mint answered ${mint.status}`);
  const bearer = { authorization: `Bearer ${((await mint.json()) as { access_token: string }).access_token}` };
  const ivTotal = totalOf(await get(`${iv.vendors.ats.baseUrl}/v1/candidates?limit=1`, bearer));

  // task-0006's world (GlobalHire, scale 6) recreated with its backfill scenario's faults armed: a 500 on page 7, a 429 burst.
  const gh = (await control("POST", "/v1/worlds", { vendors: { ats: "globalhire" }, seed: 1, scale: 6, rateLimits: false })) as Made;
  await control("POST", `/v1/worlds/${gh.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["gh-candidates-500-page-7", "gh-candidates-429-burst"] });
  const ghKey = { "x-gh-api-key": gh.vendors.ats.credentials.api_key };
  // A connector meets the faults on its first crawl; a bench measures the crawls after, while the faults stay armed.
  let ghTotal = 0;
  for (const t0 = performance.now(); performance.now() - t0 < 2500; ) {
    const res = await fetch(`${gh.vendors.ats.baseUrl}/v2/candidates?offset=${(ghTotal % 10) * 50}&limit=50`, { headers: ghKey });
    const body = await res.json();
    if (res.status === 200) ghTotal = totalOf(body);
  }

  for (const [name, n] of [
    ["HireWire pages", pages.length],
    ["Interviewly candidates", ivTotal],
    ["GlobalHire candidates", ghTotal],
  ] as const)
    if (!(typeof n === "number" && n > 1)) throw new Error(`bench: ${name}: ${n}`);
  return {
    world: hw.world,
    hop: target(hw.vendors.ats.baseUrl, ["/_health"], {}),
    crawl: target(hw.vendors.ats.baseUrl, pages, hwKey),
    reads: target(
      hw.vendors.ats.baseUrl,
      ids.map((id) => `/v1/candidates/${id}`),
      hwKey,
    ),
    tokenCrawl: target(
      iv.vendors.ats.baseUrl,
      offsets(ivTotal, 50).map((o) => `/v1/candidates?offset=${o}&limit=50`),
      bearer,
    ),
    faultedCrawl: target(
      gh.vendors.ats.baseUrl,
      offsets(ghTotal, 50).map((o) => `/v2/candidates?offset=${o}&limit=50`),
      ghKey,
    ),
    examplePage: first,
  };
}
