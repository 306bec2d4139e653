import type { Field } from "../../../declarations/schema/fields.ts";
import { COMPANIES, DEPARTMENTS, EMAIL_DOMAINS, FIRST_NAMES, JOB_TITLES, LAST_NAMES, LOCATIONS, WORDS } from "./vocabulary.ts";
import { intBetween, pickOne, type Rng } from "./prng.ts";

/** What a generator may read besides its own stream. */
export interface FieldContext {
  /** Fields already generated for this record (declaration order). */
  record: Record<string, unknown>;
  /** Parent record id, for subresources. */
  parentId: string | null;
  /** Picks the id of a live record of an entity. */
  refId: (entity: string, rng: Rng) => string | null;
  /** Stage vocabulary of the entity. */
  stages: readonly string[];
  createdMs: number;
  updatedMs: number;
}

function slug(s: unknown): string {
  return String(s ?? "")
    .normalize("NFKD")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();
}

/** Produces one field's value; timestamps come back as data-clock milliseconds. */
export function fieldValue(field: Field, rng: Rng, ctx: FieldContext): unknown {
  if (field.nullable && field.nullRate > 0 && rng() < field.nullRate) return null;
  const g = field.gen;
  switch (g.gen) {
    case "id":
      return null;
    case "firstName":
      return pickOne(rng, FIRST_NAMES);
    case "lastName":
      return pickOne(rng, LAST_NAMES);
    case "fullName":
      return `${ctx.record[g.from[0]]} ${ctx.record[g.from[1]]}`;
    case "email":
      return `${slug(ctx.record[g.from[0]])}.${slug(ctx.record[g.from[1]])}${intBetween(rng, 1, 99)}@${pickOne(rng, EMAIL_DOMAINS)}`;
    case "phone": {
      const area = intBetween(rng, 201, 989);
      const line = String(intBetween(rng, 0, 9_999_999)).padStart(7, "0");
      return g.format === "us" ? `(${area}) 555-${line.slice(3)}` : `+1${area}555${line.slice(3)}`;
    }
    case "jobTitle":
      return pickOne(rng, JOB_TITLES);
    case "department":
      return pickOne(rng, DEPARTMENTS);
    case "location":
      return pickOne(rng, LOCATIONS);
    case "company":
      return pickOne(rng, COMPANIES);
    case "sentence": {
      const n = intBetween(rng, g.words[0], g.words[1]);
      const words = Array.from({ length: n }, () => pickOne(rng, WORDS));
      const text = words.join(" ");
      return text[0].toUpperCase() + text.slice(1) + ".";
    }
    case "pick":
      return pickOne(rng, g.values);
    case "hex":
      return Array.from({ length: g.length }, () => "0123456789abcdef"[Math.floor(rng() * 16)]).join("");
    case "int":
      return intBetween(rng, g.min, g.max);
    case "money":
      return intBetween(rng, Math.ceil(g.min / g.step), Math.floor(g.max / g.step)) * g.step;
    case "bool":
      return rng() < g.p;
    case "const":
      return g.value;
    case "ref":
      return ctx.refId(g.entity, rng);
    case "parent":
      return ctx.parentId;
    case "stage":
      return pickOne(rng, ctx.stages);
    case "createdAt":
      return ctx.createdMs;
    case "updatedAt":
      return ctx.updatedMs;
  }
}
