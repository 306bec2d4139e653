import { z } from "zod";

/** Scalar value a declaration may write literally (a constant or a vocabulary entry). */
export const Literal = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/**
 * How the engine makes one field's value. Every generator is keyed by
 * (seed, vendor, entity, record index, field name), so adding a field never
 * reshuffles another field's values.
 */
export const FieldGen = z.discriminatedUnion("gen", [
  /** The record's own id, in the resource's id format. */
  z.object({ gen: z.literal("id") }),
  z.object({ gen: z.literal("firstName") }),
  z.object({ gen: z.literal("lastName") }),
  z.object({
    gen: z.literal("fullName"),
    /** Fields holding the first and last name to join. */
    from: z.tuple([z.string(), z.string()]),
  }),
  z.object({
    gen: z.literal("email"),
    /** Fields holding the first and last name the local part is built from. */
    from: z.tuple([z.string(), z.string()]),
  }),
  z.object({ gen: z.literal("phone"), format: z.enum(["e164", "us"]).default("e164") }),
  z.object({ gen: z.literal("jobTitle") }),
  z.object({ gen: z.literal("department") }),
  z.object({ gen: z.literal("location") }),
  z.object({ gen: z.literal("company") }),
  z.object({ gen: z.literal("sentence"), words: z.tuple([z.number().int().positive(), z.number().int().positive()]).default([6, 14]) }),
  z.object({ gen: z.literal("pick"), values: z.array(Literal).min(1) }),
  /** Lower-case hex digits (a digest, a fingerprint), `length` of them. */
  z.object({ gen: z.literal("hex"), length: z.number().int().positive().max(128) }),
  z.object({ gen: z.literal("int"), min: z.number().int(), max: z.number().int() }),
  z.object({
    gen: z.literal("money"),
    min: z.number().int(),
    max: z.number().int(),
    /** Values are multiples of step. */
    step: z.number().int().positive().default(1000),
  }),
  z.object({ gen: z.literal("bool"), p: z.number().min(0).max(1).default(0.5) }),
  z.object({ gen: z.literal("const"), value: Literal }),
  /** Id of a random live record of another entity. */
  z.object({ gen: z.literal("ref"), entity: z.string() }),
  /** Id of the parent record (subresources only). */
  z.object({ gen: z.literal("parent") }),
  /** Position in the entity's stage vocabulary, drawn at seed time. */
  z.object({ gen: z.literal("stage") }),
  /** Creation time on the vendor clock. */
  z.object({ gen: z.literal("createdAt") }),
  /** Last-modified time on the vendor clock; bumped by every mutation. */
  z.object({ gen: z.literal("updatedAt") }),
]);
export type FieldGen = z.infer<typeof FieldGen>;

export const FieldType = z.enum(["string", "integer", "number", "boolean", "timestamp", "id"]);

/** One field of a resource as the vendor serves it. */
export const Field = z.object({
  /** Wire name of the field. */
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "field names are identifiers"),
  /** Type shown in the documentation and used to type the OpenAPI schema. */
  type: FieldType,
  /** What the field means, in the vendor's own words. */
  description: z.string().min(1),
  /** How the seeded value is made. */
  gen: FieldGen,
  /** Whether null may appear (the generator decides when). */
  nullable: z.boolean().default(false),
  /** Probability that a nullable field is null in seeded data. */
  nullRate: z.number().min(0).max(1).default(0),
  /**
   * The field is only present when the request carries this query parameter
   * with this value (for example `include_stage=true`).
   */
  onlyWith: z.object({ param: z.string(), value: z.string() }).optional(),
});
export type Field = z.infer<typeof Field>;
export type FieldInput = z.input<typeof Field>;
