import { Requirement } from "../../mechanics/auth/index.ts";
import { Mint } from "../../mechanics/auth/index.ts";
import { z } from "zod";
import { HeaderRequirement } from "../../mechanics/auth/index.ts";

/** A secret or identifier minted per world and handed to the connector. */
export const Credential = z.object({
  /** Name used inside the declaration (`app_token`, `client_secret`, ...). */
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /** Prefix of the minted value, so a leaked value is recognisable. */
  prefix: z.string().default(""),
  /** Whether the value is a secret (redacted in logs, checked for leaks). */
  secret: z.boolean().default(true),
  /** What the credential is, for the documentation. */
  description: z.string().min(1),
});
export type Credential = z.infer<typeof Credential>;

/** An endpoint that issues tokens: one mint module of `mechanics/auth/` per `kind`. */
export { Mint };

/** What every data request must present: one scheme module of `mechanics/auth/` per `kind`. */
export { Requirement };

export { HeaderRequirement };
export type { HmacRequirement } from "../../mechanics/auth/request-signature.ts";

/** The whole auth chain of a vendor. */
export const Auth = z.object({
  /** Values minted per world and handed to the connector. */
  credentials: z.array(Credential).min(1),
  /** Endpoints that issue tokens, in chain order. */
  mints: z.array(Mint).default([]),
  /** What every data request must present; all of them. */
  present: z.array(Requirement).min(1),
  /** A legacy static credential accepted instead of `present` until an `auth-sunset` fault retires it. */
  legacy: HeaderRequirement.optional(),
});
export type Auth = z.infer<typeof Auth>;
