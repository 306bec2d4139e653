import { z } from "zod";
import { MAX_ROLES_PER_WORLD, ROLE_NAME } from "../../declarations/schema/role-name.ts";
import { DocsProfileSchema } from "../../declarations/schema/docs-profile.ts";

const Role = z.string().regex(ROLE_NAME, "roles are lower-case words (a-z, 0-9, -), at most 32 characters");
const Seed = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);

/** Lifetime of a world in seconds (a participant's is capped by its quota). */
const TtlSeconds = z
  .number()
  .int()
  .min(1)
  .max(30 * 86_400);

/** Body of `POST /v1/worlds` for a bare vendor world. */
export const CreateVendorWorldBody = z.strictObject({
  /** Role -> vendor id. */
  vendors: z
    .record(Role, z.string().max(64))
    .refine((v) => Object.keys(v).length > 0, "name at least one role")
    .refine((v) => Object.keys(v).length <= MAX_ROLES_PER_WORLD, `a world has at most ${MAX_ROLES_PER_WORLD} roles`),
  seed: Seed.default(1),
  /** Checkpoint every role starts at. */
  checkpoint: z.number().int().min(0).default(0),
  /** Multiplier on seeded record counts, for large-tenant worlds. */
  scale: z.number().int().min(1).max(50).default(1),
  /** `false` lifts the declared rate limits (load measurements only). */
  rateLimits: z.boolean().default(true),
  /** Documentation served at `_docs/`: truthful, with the declared lies, or sparse with the lies. */
  docsProfile: DocsProfileSchema.default("true"),
  /** Role -> URL that receives the vendor's webhooks. */
  webhookTargets: z.record(Role, z.url()).default({}),
  /** Deliver webhooks through the relay outbox instead of fetching targets. */
  relay: z.boolean().default(false),
  /** Lifetime in seconds (default 24 h). */
  ttlSeconds: TtlSeconds.optional(),
});

/** Body of `POST /v1/worlds/:world/roles/:role/webhook-target`. */
export const WebhookTargetBody = z.strictObject({ url: z.url().nullable(), relay: z.boolean().default(false) });

/** Body of `POST .../outbox/:id/result`: what the receiver answered (null: no answer). */
export const RelayResultBody = z.strictObject({ responseCode: z.number().int().min(100).max(599).nullable(), body: z.string().max(65_536).default("") });

/** Body of `POST /v1/worlds` for a task's world. */
export const CreateTaskWorldBody = z.strictObject({
  task: z.string().min(1),
  seed: Seed.optional(),
  webhookTargets: z.record(Role, z.url()).default({}),
  relay: z.boolean().default(false),
  ttlSeconds: TtlSeconds.optional(),
});

/** Body of `POST /v1/worlds` that seeds a fresh copy of an earlier world (its id or any URL of it). */
export const ReproduceWorldBody = z.strictObject({
  reproduce: z.string().min(1).max(2048),
  webhookTargets: z.record(Role, z.url()).default({}),
  relay: z.boolean().default(false),
  ttlSeconds: TtlSeconds.optional(),
});

/** Picks the creation schema by the body's shape, so errors name the right fields. */
export function createWorldSchema(raw: unknown) {
  if (raw && typeof raw === "object" && "reproduce" in raw) return ReproduceWorldBody;
  return raw && typeof raw === "object" && "task" in raw ? CreateTaskWorldBody : CreateVendorWorldBody;
}

/** Body of `POST /v1/worlds/:world/roles/:role/recreate`. */
export const RecreateBody = z.strictObject({
  checkpoint: z.number().int().min(0),
  /** Ids of the vendor's declared faults to arm for the new epoch. */
  faults: z.array(z.string().max(128)).max(64).default([]),
});

/** A snapshot's label: letters, digits, `_`, `.`, `:` and `-`, starting with a letter or digit. */
export const SnapshotLabel = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, "a label is 1 to 100 letters, digits, _ . : or -, starting with a letter or digit");

/** Body of `POST /v1/worlds/:world/roles/:role/snapshots`. */
export const SnapshotBody = z.strictObject({ label: SnapshotLabel });

/** `?epoch=` of the log endpoints. */
export const EpochQuery = z.object({ epoch: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });

/** Formats a zod error as one line naming each bad path. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`).join("; ");
}
