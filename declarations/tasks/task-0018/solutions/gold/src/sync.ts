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
 * again and takes every version newer than the warehouse's. A record the
 * warehouse holds live that no list returns any more is read by id: TalentLoop
 * answers 410 for a deleted record (404 for an id it never had), and only that
 * answer marks the row removed.
 */
export async function reconcile(config: Config): Promise<void> {
  const client = new TalentLoopClient(config);
  const warehouse = new Warehouse(config.outputDir);
  let confirmed = 0;
  for (const entity of ENTITIES) {
    const records = await client.listAll(PATHS[entity]);
    const listed = new Set(records.map((r) => String(r.id)));
    for (const record of records) warehouse.apply(entity, toRow(record));
    for (const [id, row] of [...warehouse.rows[entity]]) {
      if (row.is_deleted || listed.has(id)) continue;
      const { status, body } = await client.get(`${PATHS[entity]}/${encodeURIComponent(id)}`);
      if (status === 410 || status === 404) confirmed += warehouse.remove(entity, id) ? 1 : 0;
      else if (status === 200 && body && typeof body === "object") warehouse.apply(entity, toRow(body as Record<string, unknown>));
    }
  }
  warehouse.save();
  console.error(`reconcile: ${summary(warehouse)} (${confirmed} removals confirmed by TalentLoop)`);
}
