import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ChangeLine, appendChanges, readChanges } from "./changes.ts";
import { VettlyRest } from "./vettly-rest.ts";

/**
 * The REST feed. Its position is the newest `updated_at` it has appended (`.feed.json`);
 * the first run takes over the legacy feed's position (`.legacy-feed.json`), which means
 * the same thing. `modified_since` answers "at or after", so a check returned at the
 * position that the feed already holds at that stamp is not appended again. Deleted checks come
 * from the purge feed, read from the same position.
 */
const STATE = ".feed.json";
const LEGACY_STATE = ".legacy-feed.json";

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`missing environment variable ${name}`);
  return v;
}

const ms = (t: string) => Date.parse(t);

function position(outputDir: string): string {
  for (const file of [STATE, LEGACY_STATE]) {
    const path = join(outputDir, file);
    if (!existsSync(path)) continue;
    const since = (JSON.parse(readFileSync(path, "utf8")) as { since?: string | null }).since;
    if (since) return since;
  }
  throw new Error(`no position to pick up from: neither ${STATE} nor ${LEGACY_STATE} under OUTPUT_DIR holds one; run legacy-feed first`);
}

export async function feed(): Promise<void> {
  const outputDir = process.env.OUTPUT_DIR ?? "output";
  const client = new VettlyRest({ baseUrl: required("VETTLY_BASE_URL").replace(/\/$/, ""), clientId: required("VETTLY_CLIENT_ID"), clientSecret: required("VETTLY_CLIENT_SECRET") });
  const since = position(outputDir);
  const held = new Set(
    readChanges(outputDir)
      .filter((l) => ms(l.updated_at) === ms(since))
      .map((l) => l.check_id),
  );
  const seen = new Set<string>();
  const found: ChangeLine[] = [];
  // Checks are ordered and move on while the list is read, so a page can shift under the
  // crawl and a check can slip past it: the list is read again until a pass finds nothing new.
  for (let added = -1; added !== 0; ) {
    added = 0;
    for (const c of await client.changedSince("/v1/checks", since)) {
      const updatedAt = String(c.updated_at);
      if ((ms(updatedAt) === ms(since) && held.has(c.id)) || seen.has(c.id)) continue;
      seen.add(c.id);
      added += 1;
      found.push({ check_id: c.id, subject_id: String(c.subject_id), type: String(c.type), status: String(c.status), updated_at: updatedAt });
    }
  }
  // Deleted checks leave the list; Vettly names them (with every other deleted object) in its
  // purge feed, which carries no subject or type: those are the ones the feed last gave.
  const last = new Map<string, ChangeLine>(readChanges(outputDir).map((l) => [l.check_id, l]));
  for (const l of found) last.set(l.check_id, l);
  for (const p of await client.changedSince("/v1/purges", since)) {
    if (p.object_type !== "check" || seen.has(p.id)) continue;
    const prior = last.get(p.id);
    const purgedAt = String(p.purged_at);
    if (!prior || prior.status === "deleted") continue;
    seen.add(p.id);
    found.push({ check_id: p.id, subject_id: prior.subject_id, type: prior.type, status: "deleted", updated_at: purgedAt });
  }
  appendChanges(outputDir, found);
  const newest = found.reduce((max, l) => (ms(l.updated_at) > ms(max) ? l.updated_at : max), since);
  const path = join(outputDir, STATE);
  writeFileSync(`${path}.tmp`, JSON.stringify({ since: newest }));
  renameSync(`${path}.tmp`, path);
  console.error(`feed: ${found.length} changed checks appended since ${since}; position ${newest}`);
}
