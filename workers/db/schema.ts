import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
  /** Patches it may submit per UTC day (`POST /v1/submissions`). */
  submissionsPerDay: integer("submissions_per_day").notNull().default(50),
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

/** Where a submission stands: waiting for a runner, held by one, graded (a run), or refused (its patch does not apply). */
export type SubmissionStatus = "pending" | "claimed" | "graded" | "failed";

/**
 * Patches participants submitted (`POST /v1/submissions`) for the operator's
 * runner to grade (`wirebench grade-all --from-farm`). A submission holds no
 * verdict of its own: a graded one names the run the runner sealed, whose
 * verdict the grader stored.
 */
export const submissions = sqliteTable(
  "submissions",
  {
    /** Submission id (`sub_<hex>`). */
    id: text("id").primaryKey(),
    participant: text("participant").notNull(),
    task: text("task").notNull(),
    /** The label the result is published under. */
    model: text("model").notNull(),
    /** The patch as submitted (capped so that one value fits a D1 row). */
    patch: text("patch").notNull(),
    patchSha256: text("patch_sha256").notNull(),
    patchBytes: integer("patch_bytes").notNull(),
    status: text("status").$type<SubmissionStatus>().notNull(),
    createdAt: integer("created_at").notNull(),
    /** Token of the runner holding the claim; a result must carry it. */
    claim: text("claim"),
    claimedAt: integer("claimed_at"),
    completedAt: integer("completed_at"),
    /** The operator-sealed run that graded it (a run grades one submission at most). */
    run: text("run").unique(),
    /** Why its patch was refused (status `failed`). */
    reason: text("reason"),
  },
  (t) => [index("submissions_status_created").on(t.status, t.createdAt), index("submissions_participant_created").on(t.participant, t.createdAt)],
);
