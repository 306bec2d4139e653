/**
 * @module faults/cursor-invalidated
 * At the trigger, every cursor issued before it is refused as expired: a
 * client must restart that list from its last good position.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("cursor-invalidated"), id: faultId, ...afterRequests });

export const cursorInvalidated = defineFault({
  schema,
  hooks: {
    oneShot() {},
    cursorCutoff(f, s) {
      return s.firedAt(f.id);
    },
  },
});
