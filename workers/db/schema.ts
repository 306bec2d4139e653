import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
