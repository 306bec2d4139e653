import { integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Every world the farm has created. */
export const worlds = sqliteTable("worlds", {
  /** World id (`w_...`). */
  id: text("id").primaryKey(),
  /** Task the world was created for, or null for a bare vendor world. */
  task: text("task"),
  seed: integer("seed").notNull(),
  /** JSON object: role -> vendor id. */
  roles: text("roles", { mode: "json" }).$type<Record<string, string>>().notNull(),
  /** Creation time, ms since the Unix epoch (bookkeeping, never in vendor data). */
  createdAt: integer("created_at").notNull(),
});

/** A sealed run: one connector graded against one world. */
export const runs = sqliteTable("runs", {
  id: text("id").primaryKey(),
  task: text("task").notNull(),
  seed: integer("seed").notNull(),
  world: text("world").notNull(),
  /** Set when the harness could not run the connector at all. */
  error: text("error", { mode: "json" }).$type<{ class: string; message: string } | null>(),
  createdAt: integer("created_at").notNull(),
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
