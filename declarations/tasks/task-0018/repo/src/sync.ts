import type { Config } from "./config.ts";
import { TalentLoopClient } from "./talentloop-client.ts";
import { ENTITIES, PATHS, toRow, Warehouse } from "./warehouse.ts";

/** Rows per warehouse file after a run, for the log. */
function summary(warehouse: Warehouse): string {
  return ENTITIES.map((e) => {
    const rows = [...warehouse.rows[e].values()];
    return `${e}s: ${rows.length} rows, ${rows.filter((r) => r.is_deleted).length} removed`;
  }).join("; ");
}

/** First load of a tenant: reads every candidate and application and rewrites the warehouse files. */
export async function backfill(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const warehouse = new Warehouse(config.outputDir);
  for (const entity of ENTITIES) {
    const records = await client.listAll(PATHS[entity]);
    warehouse.reset(entity);
    for (const record of records) warehouse.apply(entity, toRow(record));
  }
  warehouse.save();
  console.error(`backfill: ${summary(warehouse)}`);
}

/**
 * The nightly repair, while the listener is paused: reads the whole tenant
 * again and takes every version newer than the warehouse's, removals (the
 * `deleted` flag) included. TalentLoop purges a removed record some time after
 * flagging it, and the warehouse already holds the flag by then, so a record
 * that no longer appears in the lists keeps its last row.
 */
export async function reconcile(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const warehouse = new Warehouse(config.outputDir);
  for (const entity of ENTITIES) {
    for (const record of await client.listAll(PATHS[entity])) warehouse.apply(entity, toRow(record));
  }
  warehouse.save();
  console.error(`reconcile: ${summary(warehouse)}`);
}
