import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { HireWire } from "./hirewire.ts";

/** The analytics job's last watermark (milliseconds, like every HireWire timestamp). */
const HANDOVER_WATERMARK_MS = 1748736000000;

export async function poll(config: Config): Promise<number> {
  const client = new HireWire(config);
  const statePath = join(config.outputDir, "poll-state.json");
  const since: number = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")).since : HANDOVER_WATERMARK_MS;
  const changed = (await client.listAll("/v1/candidates", { since: String(since) })).sort((a, b) => a.id - b.id);
  const rows = changed.map(({ id, created_at, updated_at, ...rest }) => ({
    candidate_id: id,
    ...rest,
    created_at: new Date(created_at).toISOString(),
    updated_at: new Date(updated_at).toISOString(),
  }));
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, "candidate_changes.json"), JSON.stringify(rows, null, 2));
  writeFileSync(statePath, JSON.stringify({ since: Math.max(since, ...changed.map((c) => c.updated_at)) }));
  return 0;
}
