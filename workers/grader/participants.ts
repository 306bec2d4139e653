/**
 * @module participants
 * Participant keys: minted by the operator, shown once, kept as a hash.
 */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { z } from "zod";
import { participants } from "../db/schema.ts";
import { randomToken } from "../engine/auth/credentials.ts";
import { keyHash, PARTICIPANT_KEY_PREFIX, type Principal } from "../middleware/principal/principal.ts";

/** Body of `POST /v1/participants`. */
export const MintParticipantBody = z.strictObject({
  /** Who the key is for (a lab, a team). */
  name: z.string().min(1).max(100),
  quota: z
    .strictObject({
      /** Worlds per UTC day. */
      worldsPerDay: z.number().int().min(1).max(100_000).default(200),
      /** Worlds live at once. */
      liveWorlds: z.number().int().min(1).max(10_000).default(20),
      /** Vendor requests per world, over all its roles and epochs. */
      requestsPerWorld: z.number().int().min(1).max(10_000_000).default(50_000),
      /** Lifetime of each world, seconds (default 24 h). */
      worldTtlS: z
        .number()
        .int()
        .min(60)
        .max(30 * 86_400)
        .default(86_400),
      /** Patches submitted per UTC day (`POST /v1/submissions`). */
      submissionsPerDay: z.number().int().min(1).max(100_000).default(50),
    })
    .default({ worldsPerDay: 200, liveWorlds: 20, requestsPerWorld: 50_000, worldTtlS: 86_400, submissionsPerDay: 50 }),
});

/** Mints a participant; returns its id and the key (never stored). */
export async function mintParticipant(db: D1Database, body: z.infer<typeof MintParticipantBody>, nowMs: number) {
  const id = `p_${randomToken(8)}`;
  const key = `${PARTICIPANT_KEY_PREFIX}${randomToken(16)}`;
  await drizzle(db)
    .insert(participants)
    .values({ id, name: body.name, keyHash: await keyHash(key), ...body.quota, createdAt: nowMs });
  return { participant: id, name: body.name, key, quota: body.quota };
}

/** The participant whose key hashes to `hash`, or null. */
export async function participantByKeyHash(db: D1Database, hash: string): Promise<Extract<Principal, { kind: "participant" }> | null> {
  const row = (await drizzle(db).select().from(participants).where(eq(participants.keyHash, hash)).limit(1))[0];
  if (!row) return null;
  return {
    kind: "participant",
    id: row.id,
    name: row.name,
    quota: { worldsPerDay: row.worldsPerDay, liveWorlds: row.liveWorlds, requestsPerWorld: row.requestsPerWorld, worldTtlS: row.worldTtlS, submissionsPerDay: row.submissionsPerDay },
  };
}
