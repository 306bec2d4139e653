/**
 * @module world-registry
 * The archive's rows of worlds: written when the farm creates a world, read
 * when anything names one.
 */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { worlds } from "../db/schema.ts";

/** A world as the archive holds it. */
export type WorldRow = typeof worlds.$inferSelect;

/** The world row, or null. */
export async function findWorldRow(db: D1Database, id: string): Promise<WorldRow | null> {
  const rows = await drizzle(db).select().from(worlds).where(eq(worlds.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Records a world the farm has just seeded. */
export async function insertWorldRow(db: D1Database, row: WorldRow): Promise<void> {
  await drizzle(db).insert(worlds).values(row);
}
