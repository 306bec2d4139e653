import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ChangeLine, appendChanges, readChanges } from "../changes.ts";
import { type BrokerConfig, brokerToken } from "./vaultd.ts";

/**
 * The feed as it runs today: ScreeningXml `ListChecks`, tokens from vaultd. Its position,
 * kept in `.legacy-feed.json`, is the newest `updated_at` it has appended: the next run
 * asks for checks modified since then. Vettly answers "at or after", so the checks
 * stamped exactly at the position come back once more; those already in the feed at
 * that stamp are skipped.
 */
const NS = "urn:vettly:screening:1";
const STATE = ".legacy-feed.json";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface LegacyState {
  since: string | null;
}

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`missing environment variable ${name}`);
  return v;
}

function decode(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" })[e] ?? "");
}

/** The text of each child element of a record (nil elements as empty text). */
function fields(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<([A-Za-z_][\w.-]*)(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1>)/g)) out[m[1]] = decode(m[3] ?? "");
  return out;
}

async function listChecks(config: BrokerConfig, token: { value: string }, params: Record<string, string>): Promise<string> {
  const body = `<?xml version="1.0" encoding="utf-8"?>\n<Request xmlns="${NS}" operation="ListChecks">${Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("")}</Request>`;
  for (let attempt = 0; attempt < 8; attempt++) {
    const res = await fetch(`${config.baseUrl}/xml/screening`, { method: "POST", headers: { "Content-Type": "application/xml; charset=utf-8", Authorization: `Bearer ${token.value}` }, body });
    const xml = await res.text();
    if (res.status === 429 || res.status === 503) {
      await sleep(Math.max(1, Number(res.headers.get("retry-after")) || 1) * 1000);
      continue;
    }
    if (res.status !== 200) throw new Error(`ListChecks: HTTP ${res.status} ${xml.slice(0, 200)}`);
    if (/<Response\b[^>]*\sstatus="ok"/.test(xml)) return xml;
    const code = /<Error\b[^>]*\scode="([^"]*)"/.exec(xml)?.[1] ?? "error";
    if (!/token|unauthorized/.test(code)) throw new Error(`ListChecks: ${code} ${xml.slice(0, 200)}`);
    token.value = await brokerToken(config);
  }
  throw new Error("ListChecks: Vettly kept refusing the call");
}

export async function legacyFeed(): Promise<void> {
  const outputDir = process.env.OUTPUT_DIR ?? "output";
  const config: BrokerConfig = { baseUrl: required("VETTLY_BASE_URL").replace(/\/$/, ""), clientId: required("VETTLY_CLIENT_ID"), clientSecret: required("VETTLY_CLIENT_SECRET") };
  const statePath = join(outputDir, STATE);
  const state: LegacyState = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : { since: null };
  const atPosition = new Set(
    readChanges(outputDir)
      .filter((l) => l.updated_at === state.since)
      .map((l) => l.check_id),
  );
  const token = { value: await brokerToken(config) };
  const found: ChangeLine[] = [];
  let pageToken: string | null = null;
  do {
    const params: Record<string, string> = { page_size: "100" };
    if (state.since) params.modified_since = state.since;
    if (pageToken) params.page_token = pageToken;
    const xml = await listChecks(config, token, params);
    for (const m of xml.matchAll(/<check>([\s\S]*?)<\/check>/g)) {
      const f = fields(m[1]);
      if (f.updated_at === state.since && atPosition.has(f.id)) continue;
      found.push({ check_id: f.id, subject_id: f.subject_id, type: f.type, status: f.status, updated_at: f.updated_at });
    }
    pageToken = /<next_page_token>([^<]+)<\/next_page_token>/.exec(xml)?.[1] ?? null;
  } while (pageToken);
  appendChanges(outputDir, found);
  const newest = found.reduce<string | null>((max, l) => (max === null || l.updated_at > max ? l.updated_at : max), state.since);
  writeFileSync(`${statePath}.tmp`, JSON.stringify({ since: newest } satisfies LegacyState));
  renameSync(`${statePath}.tmp`, statePath);
  console.error(`legacy-feed: ${found.length} changed checks appended; position ${newest}`);
}
