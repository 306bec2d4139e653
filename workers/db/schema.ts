import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** How a world was seeded: enough to seed an identical one. */
export interface WorldPlan {
  roles: Record<string, { vendor: string; checkpoint: number; scale: number }>;
  docsProfile: "true" | "stale" | "sparse";
  rateLimits: boolean;
}

/** Every world the farm has created. */
export const worlds = sqliteTable("worlds", {
  /** World id (`r1-t0001-s7-<16 hex>`: release, task or `v` for a bare vendor world, seed, random part). */
  id: text("id").primaryKey(),
  /** Task the world was created for, or null for a bare vendor world. */
  task: text("task"),
  seed: integer("seed").notNull(),
  /** JSON object: role -> vendor id. */
  roles: text("roles", { mode: "json" }).$type<Record<string, string>>().notNull(),
  /** Creation time, ms since the Unix epoch (bookkeeping, never in vendor data). */
  createdAt: integer("created_at").notNull(),
  /** Release of the declarations the world was seeded from (`r1`). */
  release: text("release").notNull().default("r0"),
  /** SHA-256 of the vendor declarations of that release, as the farm computed it. */
  declarationHash: text("declaration_hash").notNull().default(""),
  /** The seeding plan (null for worlds archived before plans were kept: they cannot be reproduced). */
  plan: text("plan", { mode: "json" }).$type<WorldPlan | null>(),
  /** Participant that created it; null for the operator (admin token). */
  participant: text("participant"),
  /** When the world's objects delete their storage, ms since the Unix epoch. */
  expiresAt: integer("expires_at"),
  /** When it ended (expired or deleted); null while live. */
  endedAt: integer("ended_at"),
  /** Why it ended: `expired` or `deleted`. */
  endReason: text("end_reason"),
  /** The run that sealed it (a world is sealed at most once), or null. */
  sealedRun: text("sealed_run"),
});

/** Keys the operator hands out: each a participant with its own quotas. */
export const participants = sqliteTable("participants", {
  /** Participant id (`p_<hex>`). */
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** SHA-256 (hex) of the key; the key itself is shown once, at minting. */
  keyHash: text("key_hash").notNull().unique(),
  /** Worlds it may create per UTC day. */
  worldsPerDay: integer("worlds_per_day").notNull(),
  /** Worlds it may hold live at once. */
  liveWorlds: integer("live_worlds").notNull(),
  /** Vendor requests one of its worlds may take (over all roles and epochs). */
  requestsPerWorld: integer("requests_per_world").notNull(),
  /** Lifetime of its worlds, seconds. */
  worldTtlS: integer("world_ttl_s").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** A sealed run: one connector graded against one world. */
export const runs = sqliteTable("runs", {
  id: text("id").primaryKey(),
  task: text("task").notNull(),
  seed: integer("seed").notNull(),
  world: text("world").notNull(),
  /** Participant that sealed it (the world's); null for the operator. */
  participant: text("participant"),
  /** Set when the harness could not run the connector at all. */
  error: text("error", { mode: "json" }).$type<{ class: string; message: string } | null>(),
  createdAt: integer("created_at").notNull(),
  /** Sealed by a participant: its connector ran in the participant's own harness, so its outputs are the participant's word. */
  selfReported: integer("self_reported", { mode: "boolean" }).notNull().default(false),
});

/**
 * Evidence of one scenario of a sealed run (logs, outputs, snapshots), as JSON
 * split into parts: D1 caps a single value at 2 MB and a large back-fill's
 * evidence is several times that.
 */
export const evidence = sqliteTable(
  "evidence",
  {
    runId: text("run_id").notNull(),
    /** Position of the scenario in the task. */
    position: integer("position").notNull(),
    /** Index of this slice of the scenario's JSON text. */
    part: integer("part").notNull(),
    scenario: text("scenario").notNull(),
    json: text("json").notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.position, t.part] })],
);

/** The latest verdict of a run; re-grading replaces it. */
export const verdicts = sqliteTable("verdicts", {
  runId: text("run_id").primaryKey(),
  score: real("score").notNull(),
  solved: integer("solved", { mode: "boolean" }).notNull(),
  json: text("json").notNull(),
  gradedAt: integer("graded_at").notNull(),
});
