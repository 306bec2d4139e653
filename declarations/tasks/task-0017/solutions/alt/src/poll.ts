import type { Config } from "./config.ts";
import { ENTITIES, type Entity, Mirror, PATHS, toRow } from "./mirror.ts";
import { TalentLoopClient } from "./talentloop-client.ts";

/** First load: reads every candidate and application and rewrites the hub files. */
export async function backfill(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const mirror = new Mirror(config.outputDir);
  for (const entity of ENTITIES) {
    const records = await client.listAll(PATHS[entity]);
    mirror.reset(entity);
    for (const record of records) mirror.apply(entity, toRow(record));
  }
  mirror.save();
  console.error(`backfill: ${mirror.summary()}`);
}

/**
 * Asks TalentLoop about one record the lists no longer show: 410 means it was
 * deleted, 200 that it is still there (the list raced a change). Returns
 * whether the hub changed.
 */
export async function confirm(client: TalentLoopClient, mirror: Mirror, entity: Entity, id: string): Promise<boolean> {
  const { status, body } = await client.request("GET", `${PATHS[entity]}/${encodeURIComponent(id)}`);
  if (status === 410) {
    mirror.remove(entity, id);
    return true;
  }
  if (status === 200 && body && typeof body === "object") return mirror.apply(entity, toRow(body as Record<string, unknown>));
  console.error(`${entity} ${id}: TalentLoop answered ${status}; left as it is`);
  return false;
}

/**
 * The hourly poll, the safety net under the webhooks: reads the whole tenant
 * (it is small), takes every version newer than the hub's, and settles every
 * record the hub holds live that the lists no longer show by reading it. A
 * deleted record is never in a list and carries no flag: its delete event is
 * the only other place it shows, and that event can be lost.
 */
export async function poll(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const mirror = new Mirror(config.outputDir);
  for (const entity of ENTITIES) {
    const listed = new Set<string>();
    for (const record of await client.listAll(PATHS[entity])) {
      listed.add(String(record.id));
      mirror.apply(entity, toRow(record));
    }
    const vanished = [...mirror.rows[entity].values()].filter((r) => !r.is_deleted && !listed.has(r.source_id)).map((r) => r.source_id);
    for (const id of vanished) await confirm(client, mirror, entity, id);
  }
  mirror.save();
  console.error(`poll: ${mirror.summary()}`);
}
