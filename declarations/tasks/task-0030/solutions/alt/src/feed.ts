import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ChangeLine, appendChanges, readChanges } from "./changes.ts";

/**
 * Alt: no refresh tokens at all (every 401 gets a fresh client_credentials grant), the
 * duplicates an inclusive `modified_since` brings back are dropped against every line
 * already in the feed, and after the first run the position is Vettly's own clock
 * (`X-Vettly-Server-Time`) when the run began, as the sync guide advises.
 */
const STATE = ".rest-feed-state.json";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`missing environment variable ${name}`);
  return v;
}

export async function feed(): Promise<void> {
  const outputDir = process.env.OUTPUT_DIR ?? "output";
  const baseUrl = required("VETTLY_BASE_URL").replace(/\/$/, "");
  const own = join(outputDir, STATE);
  const since = existsSync(own)
    ? (JSON.parse(readFileSync(own, "utf8")) as { server_time: string }).server_time
    : (JSON.parse(readFileSync(join(outputDir, ".legacy-feed.json"), "utf8")) as { since: string }).since;
  let access: string | null = null;
  let serverTime: string | null = null;
  const grant = async () => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", client_id: required("VETTLY_CLIENT_ID"), client_secret: required("VETTLY_CLIENT_SECRET") }),
      });
      serverTime ??= res.headers.get("x-vettly-server-time");
      const body = await res.text();
      if (res.ok) return String((JSON.parse(body) as { access_token: string }).access_token);
      if (res.status !== 429 || attempt >= 6) throw new Error(`client_credentials grant refused: ${res.status} ${body.slice(0, 200)}`);
      await sleep(Math.max(1, Number(res.headers.get("retry-after")) || 1) * 1000);
    }
  };
  const held = new Set(readChanges(outputDir).map((l) => `${l.check_id}@${Date.parse(l.updated_at)}`));
  const found: ChangeLine[] = [];
  /** Every page of a list changed since the position, each handed to `take`. */
  const readAll = async (path: string, take: (r: Record<string, unknown>) => void) => {
    let pageToken: string | null = null;
    let failures = 0;
    for (;;) {
      access ??= await grant();
      const query = new URLSearchParams({ page_size: "50", modified_since: since });
      if (pageToken) query.set("page_token", pageToken);
      const res = await fetch(`${baseUrl}${path}?${query}`, { headers: { Authorization: `Bearer ${access}` } });
      serverTime ??= res.headers.get("x-vettly-server-time");
      if (!res.ok) {
        const body = await res.text();
        if (++failures > 20) throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 200)}`);
        if (res.status === 401) access = null;
        else if (res.status === 429 || res.status === 503) await sleep(Math.max(1, Number(res.headers.get("retry-after")) || 1) * 1000);
        else throw new Error(`GET ${path}: ${res.status} ${body.slice(0, 200)}`);
        continue;
      }
      const page = (await res.json()) as { results: Record<string, unknown>[]; next_page_token: string | null };
      for (const r of page.results) take(r);
      pageToken = page.next_page_token;
      if (!pageToken) return;
    }
  };
  // Checks change while the list is read and a page can shift under the crawl: read it until a pass adds nothing.
  for (let before = -1; before !== found.length; ) {
    before = found.length;
    await readAll("/v1/checks", (c) => {
      const key = `${c.id}@${Date.parse(String(c.updated_at))}`;
      if (held.has(key)) return;
      held.add(key);
      found.push({ check_id: String(c.id), subject_id: String(c.subject_id), type: String(c.type), status: String(c.status), updated_at: String(c.updated_at) });
    });
  }
  // A withdrawn check is only in the purge feed; its subject and type are the feed's last line's.
  const lastLine = new Map([...readChanges(outputDir), ...found].map((l) => [l.check_id, l]));
  await readAll("/v1/purges", (p) => {
    const prior = lastLine.get(String(p.id));
    if (p.object_type !== "check" || !prior || prior.status === "deleted") return;
    const line = { check_id: String(p.id), subject_id: prior.subject_id, type: prior.type, status: "deleted", updated_at: String(p.purged_at) };
    lastLine.set(line.check_id, line);
    found.push(line);
  });
  if (!serverTime) throw new Error("Vettly sent no X-Vettly-Server-Time");
  appendChanges(outputDir, found);
  writeFileSync(`${own}.tmp`, JSON.stringify({ server_time: serverTime }));
  renameSync(`${own}.tmp`, own);
  console.error(`feed: ${found.length} changed checks appended since ${since}`);
}
