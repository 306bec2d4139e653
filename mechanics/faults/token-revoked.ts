/**
 * @module faults/token-revoked
 * At the trigger every token issued so far stops working (401, or an
 * off-spec 403); tokens minted afterwards work.
 */
import { z } from "zod";
import { afterRequests, defineFault, faultId } from "./define.ts";

const schema = z.object({
  kind: z.literal("token-revoked"),
  id: faultId,
  ...afterRequests,
  status: z.union([z.literal(401), z.literal(403)]).default(401),
});

export const tokenRevoked = defineFault({
  schema,
  hooks: {
    oneShot(_f, world) {
      world.revokeTokens();
    },
    onAuthRefused(f, s, req) {
      if (!s.fired(f.id) || !req.presentsRevoked()) return null;
      return s.error(f.status, "token_revoked", "the token was revoked");
    },
  },
});
