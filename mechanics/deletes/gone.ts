/**
 * @module deletes/gone
 * Deleted records vanish from lists; reading one answers 410 Gone.
 */
import { z } from "zod";
import { defineDeletes } from "./define.ts";

const schema = z.object({ mode: z.literal("gone") });

export const goneDeletes = defineDeletes({
  schema,
  listsDeleted: false,
  read: { serve: false, status: 410, code: "gone", message: (what) => `${what} was deleted` },
  docs: { clause: () => "deleted records disappear from lists; reading one answers `410 Gone`" },
});
