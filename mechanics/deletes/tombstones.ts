/**
 * @module deletes/tombstones
 * Deleted records vanish from lists and reads; a feed lists them with the
 * deletion time.
 */
import { z } from "zod";
import { defineDeletes } from "./define.ts";

const schema = z.object({
  mode: z.literal("tombstones"),
  /** Where the feed is listed; none when it is reached only through a gateway operation. */
  path: z.string().startsWith("/").optional(),
  /** Field naming the entity of a tombstone. */
  entityField: z.string().default("entity"),
  /** Field holding the deletion time. */
  deletedAtField: z.string().default("deleted_at"),
  /** Whether the feed honours the incremental filter. */
  incremental: z.boolean().default(true),
});

export const tombstoneDeletes = defineDeletes({
  schema,
  listsDeleted: false,
  read: { serve: false, status: 404, code: "not_found", message: (what) => `${what} does not exist` },
  feed: {
    path: (d) => d.path,
    incremental: (d) => d.incremental,
    entry: (d, t) => ({ id: t.id, [d.entityField]: t.entity, [d.deletedAtField]: t.deletedAt }),
    entrySchema: (d, deletedAt) => ({
      properties: { id: { type: ["string", "integer"] }, [d.entityField]: { type: "string" }, [d.deletedAtField]: deletedAt },
      required: ["id", d.entityField, d.deletedAtField],
    }),
  },
  docs: {
    clause: (d) => (d.path ? `deleted records disappear from lists and are listed at \`GET ${d.path}\`` : "deleted records disappear from lists and are listed by the deletion feed operation"),
    syncing: (d, hasIncremental) =>
      `Each entry names the record's \`id\`, its type in \`${d.entityField}\` and the deletion time in \`${d.deletedAtField}\`. The feed pages like every list${d.incremental && hasIncremental ? " and accepts the same incremental parameter" : ""}.`,
  },
});
