/**
 * @module faults/auth-sunset
 * At the trigger the legacy credential (`auth.legacy`) stops working:
 * requests using it get 401 `legacy_auth_retired`.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({ kind: z.literal("auth-sunset"), id: faultId, ...afterRequests });

export const authSunset = defineFault({
  schema,
  hooks: {
    retiresLegacy(f, s) {
      return s.fired(f.id) || (s.reached(f) && s.fireOnce(f.id));
    },
  },
});
