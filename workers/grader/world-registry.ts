/**
 * @module world-registry
 * The archive's rows of worlds: written when the farm creates a world, read
 * when anything names one, ended when a world expires or is deleted.
 */
import { and, count, eq, gt, gte, isNull, min, or } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { worlds } from "../db/schema.ts";

/** A world as the archive holds it. */
export type WorldRow = typeof worlds.$inferSelect;

/** How a world ended. */
export type EndReason = "expired" | "deleted";

/** What a participant's live and recent worlds add up to. */
export interface WorldUse {
  /** Worlds created since the start of the UTC day. */
  createdToday: number;
  /** Worlds neither ended nor past their expiry. */
  live: number;
  /** Earliest expiry among the live ones (ms), or null. */
  nextExpiryMs: number | null;
}

/** The world row, or null. */
export async function findWorldRow(db: D1Database, id: string): Promise<WorldRow | null> {
  const rows = await drizzle(db).select().from(worlds).where(eq(worlds.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Records a world the farm has just seeded. */
export async function insertWorldRow(db: D1Database, row: WorldRow): Promise<void> {
  await drizzle(db).insert(worlds).values(row);
}

/** Marks a world ended (the first reason given wins); sealed runs of it stay. */
export async function endWorldRow(db: D1Database, id: string, reason: EndReason, atMs: number): Promise<void> {
  await drizzle(db)
    .update(worlds)
    .set({ endedAt: atMs, endReason: reason })
    .where(and(eq(worlds.id, id), isNull(worlds.endedAt)));
}

/** A participant's world counts at `nowMs`. */
export async function worldUse(db: D1Database, participant: string, nowMs: number): Promise<WorldUse> {
  const d = drizzle(db);
  const dayStart = Math.floor(nowMs / 86_400_000) * 86_400_000;
  const [today] = await d
    .select({ n: count() })
    .from(worlds)
    .where(and(eq(worlds.participant, participant), gte(worlds.createdAt, dayStart)));
  const [live] = await d
    .select({ n: count(), next: min(worlds.expiresAt) })
    .from(worlds)
    .where(and(eq(worlds.participant, participant), isNull(worlds.endedAt), or(isNull(worlds.expiresAt), gt(worlds.expiresAt, nowMs))));
  return { createdToday: today.n, live: live.n, nextExpiryMs: live.next ?? null };
}
