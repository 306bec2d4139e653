/**
 * @module world-registry
 * The archive's rows of worlds: written when the farm creates a world, read
 * when anything names one, ended when a world expires or is deleted.
 */
import { and, count, eq, gt, gte, isNull, min, or, sql } from "drizzle-orm";
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

/** Records a world the farm is about to seed (the operator's: no quota). */
export async function insertWorldRow(db: D1Database, row: WorldRow): Promise<void> {
  await drizzle(db).insert(worlds).values(row);
}

/** A participant's world limits, as its principal carries them. */
export interface WorldLimits {
  worldsPerDay: number;
  liveWorlds: number;
}

/**
 * Reserves a participant's world: one conditional INSERT that adds the row
 * only while the participant's worlds created this UTC day and its live
 * worlds (at the row's creation time) are both under their limits. D1 runs
 * one statement at a time, so concurrent reservations can never pass a limit
 * between them. Returns true when the row was added.
 */
export async function reserveWorldRow(db: D1Database, row: WorldRow, limits: WorldLimits): Promise<boolean> {
  const now = row.createdAt;
  const dayStart = Math.floor(now / 86_400_000) * 86_400_000;
  const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
  const result = await drizzle(db).run(sql`
    INSERT INTO worlds (id, task, seed, roles, created_at, release, declaration_hash, plan, participant, expires_at, ended_at, end_reason, sealed_run)
    SELECT ${row.id}, ${row.task}, ${row.seed}, ${json(row.roles)}, ${now}, ${row.release}, ${row.declarationHash}, ${json(row.plan)}, ${row.participant}, ${row.expiresAt}, NULL, NULL, NULL
    WHERE (SELECT count(*) FROM worlds WHERE participant = ${row.participant} AND created_at >= ${dayStart}) < ${limits.worldsPerDay}
      AND (SELECT count(*) FROM worlds WHERE participant = ${row.participant} AND ended_at IS NULL AND (expires_at IS NULL OR expires_at > ${now})) < ${limits.liveWorlds}`);
  return result.meta.changes === 1;
}

/** Removes a reserved world whose seeding failed, so it counts against no quota. */
export async function dropWorldRow(db: D1Database, id: string): Promise<void> {
  await drizzle(db).delete(worlds).where(eq(worlds.id, id));
}

/** Marks a world sealed by `run`; false when it was already sealed (a world is sealed at most once). */
export async function claimSeal(db: D1Database, id: string, run: string): Promise<boolean> {
  const claimed = await drizzle(db)
    .update(worlds)
    .set({ sealedRun: run })
    .where(and(eq(worlds.id, id), isNull(worlds.sealedRun)))
    .returning({ id: worlds.id });
  return claimed.length === 1;
}

/** Gives a claimed seal back (the run could not be written). */
export async function releaseSeal(db: D1Database, id: string, run: string): Promise<void> {
  await drizzle(db)
    .update(worlds)
    .set({ sealedRun: null })
    .where(and(eq(worlds.id, id), eq(worlds.sealedRun, run)));
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
