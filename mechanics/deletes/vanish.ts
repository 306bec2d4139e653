/**
 * @module deletes/vanish
 * Deleted records vanish from lists and reads without a trace (404).
 */
import { z } from "zod";
import { defineDeletes } from "./define.ts";

const schema = z.object({ mode: z.literal("vanish") });

export const vanishDeletes = defineDeletes({
  schema,
  listsDeleted: false,
  read: { serve: false, status: 404, code: "not_found", message: (what) => `${what} does not exist` },
  docs: { clause: () => "deleted records disappear from lists and reads (`404`)" },
});
