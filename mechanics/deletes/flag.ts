/**
 * @module deletes/flag
 * Deleted records stay in lists and reads with a boolean field set.
 */
import { z } from "zod";
import { defineDeletes } from "./define.ts";

const schema = z.object({ mode: z.literal("flag"), field: z.string() });

export const flagDeletes = defineDeletes({
  schema,
  listsDeleted: true,
  read: { serve: true },
  flagField: (d) => d.field,
  docs: { clause: (d) => `deleted records stay in lists with \`${d.field}: true\`` },
});
