import type { Config } from "./config.ts";
import { ENTITIES, Mirror, PATHS, toRow } from "./mirror.ts";
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
 * The hourly poll, the safety net under the webhooks: reads the whole tenant
 * (it is small) and takes every record as TalentLoop holds it, removals
 * included (they come with `deleted: true`). A record TalentLoop has purged
 * no longer appears at all; the hub had its flag or its delete event by then.
 */
export async function poll(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const mirror = new Mirror(config.outputDir);
  for (const entity of ENTITIES) {
    for (const record of await client.listAll(PATHS[entity])) mirror.apply(entity, toRow(record));
  }
  mirror.save();
  console.error(`poll: ${mirror.summary()}`);
}
