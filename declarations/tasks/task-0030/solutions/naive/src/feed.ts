import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ChangeLine, appendChanges } from "./changes.ts";

/**
 * Naive, from the docs: one token chain for the whole run, refreshed whenever a request
 * answers 401 ("an integration that keeps refreshing never has to re-authenticate"), and
 * a refused refresh is a broken integration. The position is taken over from the legacy
 * feed and every check the list returns is appended.
 */
function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`missing environment variable ${name}`);
  return v;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function feed(): Promise<void> {
  const outputDir = process.env.OUTPUT_DIR ?? "output";
  const baseUrl = required("VETTLY_BASE_URL").replace(/\/$/, "");
  let access: string | null = null;
  let refresh: string | null = null;
  const token = async (form: Record<string, string>) => {
    const res = await fetch(`${baseUrl}/oauth/token`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form) });
    const body = await res.text();
    if (!res.ok) throw new Error(`token request (${form.grant_type}) refused: ${res.status} ${body.slice(0, 200)}`);
    const t = JSON.parse(body) as { access_token: string; refresh_token: string };
    access = t.access_token;
    refresh = t.refresh_token;
  };
  const statePath = existsSync(join(outputDir, ".feed.json")) ? join(outputDir, ".feed.json") : join(outputDir, ".legacy-feed.json");
  const since = (JSON.parse(readFileSync(statePath, "utf8")) as { since: string }).since;
  await token({ grant_type: "client_credentials", client_id: required("VETTLY_CLIENT_ID"), client_secret: required("VETTLY_CLIENT_SECRET") });
  const found: ChangeLine[] = [];
  let pageToken: string | null = null;
  for (;;) {
    const query: Record<string, string> = { page_size: "100", modified_since: since };
    if (pageToken) query.page_token = pageToken;
    const res = await fetch(`${baseUrl}/v1/checks?${new URLSearchParams(query)}`, { headers: { Authorization: `Bearer ${access}` } });
    if (res.status === 401) {
      await res.text();
      await token({ grant_type: "refresh_token", refresh_token: refresh ?? "" });
      continue;
    }
    if (res.status === 429) {
      await sleep(Number(res.headers.get("retry-after") ?? 1) * 1000);
      continue;
    }
    if (!res.ok) throw new Error(`GET /v1/checks: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { results: Record<string, string>[]; next_page_token: string | null };
    for (const c of page.results) found.push({ check_id: c.id, subject_id: c.subject_id, type: c.type, status: c.status, updated_at: c.updated_at });
    pageToken = page.next_page_token;
    if (!pageToken) break;
  }
  appendChanges(outputDir, found);
  const newest = [since, ...found.map((l) => l.updated_at)].sort().at(-1);
  writeFileSync(join(outputDir, ".feed.json"), JSON.stringify({ since: newest }));
  console.error(`feed: ${found.length} checks appended`);
}
