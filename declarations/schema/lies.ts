import { z } from "zod";

const common = {
  /** Stable id, used in request-log tags (`sl-include-stage-omitted`). */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** How a client finds the truth from responses alone. */
  discover: z.string().min(1),
  /** Changelog line the stale docs print, making the lie look like a real change. */
  changelog: z.string().min(1),
};

/**
 * A deliberate documentation error. Each kind names what the docs say; the
 * truth is what the declaration makes the engine do, and the schema rejects a
 * lie whose "says" equals that truth or whose subject does not exist.
 */
export const Lie = z.discriminatedUnion("kind", [
  /** The docs give a query parameter another name. */
  z.object({ kind: z.literal("param-name"), ...common, param: z.string(), says: z.string(), resource: z.string().optional() }),
  /** The docs give an auth header another name. */
  z.object({ kind: z.literal("header-name"), ...common, header: z.string(), says: z.string() }),
  /** The docs say pages start at another number. */
  z.object({ kind: z.literal("page-base"), ...common, says: z.union([z.literal(0), z.literal(1)]) }),
  /** The docs give timestamps in another format. */
  z.object({ kind: z.literal("time-format"), ...common, says: z.enum(["epoch_ms", "epoch_s", "iso", "iso_offset"]) }),
  /** The docs describe Retry-After in another style. */
  z.object({ kind: z.literal("retry-after"), ...common, says: z.enum(["seconds", "http-date", "body"]) }),
  /** The docs document a field that responses never carry. */
  z.object({ kind: z.literal("phantom-field"), ...common, resource: z.string(), field: z.string(), type: z.enum(["string", "integer", "boolean", "timestamp"]), description: z.string() }),
  /** The docs document a query flag that does nothing. */
  z.object({ kind: z.literal("phantom-flag"), ...common, resource: z.string(), param: z.string(), description: z.string() }),
  /** The docs leave out a flag that responses need (an `onlyWith` field's parameter). */
  z.object({ kind: z.literal("omitted-flag"), ...common, resource: z.string(), param: z.string() }),
  /** The docs say a token's expiry is sliding when it is absolute, or the reverse. */
  z.object({ kind: z.literal("token-expiry"), ...common, token: z.string(), says: z.enum(["sliding", "absolute"]) }),
  /** The docs give another maximum page size. */
  z.object({ kind: z.literal("page-size-cap"), ...common, says: z.number().int().positive(), resource: z.string().optional() }),
  /** The docs give another rate-limit quota or window. */
  z.object({ kind: z.literal("rate-window"), ...common, says: z.object({ limit: z.number().int().positive(), cooldownS: z.number().int().positive() }) }),
  /** The docs give another signature recipe (parts, order or separator). */
  z.object({ kind: z.literal("signature-recipe"), ...common, says: z.object({ parts: z.array(z.string()).min(1), separator: z.string() }) }),
  /** The docs give another error body shape. */
  z.object({ kind: z.literal("error-shape"), ...common, says: z.object({ wrap: z.string().optional(), codeField: z.string(), messageField: z.string() }) }),
  /** The docs describe deletes another way. */
  z.object({
    kind: z.literal("delete-semantics"),
    ...common,
    says: z.discriminatedUnion("mode", [
      z.object({ mode: z.literal("flag"), field: z.string() }),
      z.object({ mode: z.literal("gone") }),
      z.object({ mode: z.literal("vanish") }),
      z.object({ mode: z.literal("tombstones"), path: z.string() }),
    ]),
  }),
]);
export type Lie = z.infer<typeof Lie>;
export type LieKind = Lie["kind"];
