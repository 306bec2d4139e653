/**
 * @module union
 * Builds a zod discriminated union from a registry of mechanic modules, so
 * the registry stays the only list of a family's kinds.
 */
import { z } from "zod";

type Schemas<T extends readonly { schema: unknown }[]> = { -readonly [K in keyof T]: T[K]["schema"] };
type Option = z.core.$ZodTypeDiscriminable;

/** The discriminated union of every module's schema in a registry. */
export function unionOf<const T extends readonly [{ schema: Option }, ...{ schema: Option }[]], D extends string>(discriminator: D, registry: T) {
  const options = registry.map((m) => m.schema) as unknown as Schemas<T> & [Option, ...Option[]];
  return z.discriminatedUnion(discriminator, options);
}
