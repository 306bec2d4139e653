import { z } from "zod";

/** A row of the append-only change log the mirror tasks write (`changes.json`): one per new version taken in. */
export const ChangeRowSchema = z.looseObject({
  seq: z.number().int().positive(),
  entity: z.enum(["candidate", "application"]),
  source_id: z.string(),
  updated_at: z.string(),
  is_deleted: z.boolean(),
  via: z.enum(["webhook", "poll"]),
  event_id: z.string().nullable(),
});
