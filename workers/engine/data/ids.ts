import type { Resource } from "../../../declarations/schema/vendor.ts";
import { rngFor } from "./prng.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID whose time part is the record's creation time and whose random part is seeded. */
function ulid(createdMs: number, seed: number, entity: string, index: number): string {
  let time = "";
  let t = createdMs;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const rng = rngFor(seed, entity, index, "ulid");
  let rand = "";
  for (let i = 0; i < 16; i++) rand += CROCKFORD[Math.floor(rng() * 32)];
  return time + rand;
}

/** The id of the index-th record ever created for an entity. */
export function recordId(resource: Resource, index: number, createdMs: number, seed: number): string {
  const f = resource.id;
  switch (f.format) {
    case "prefixed":
      return f.prefix + String(index + 1).padStart(f.width, "0");
    case "int":
      return String(f.start + index);
    case "ulid":
      return ulid(createdMs, seed, resource.name, index);
  }
}

/** Ids of `int` entities are served as JSON numbers. */
export function wireId(resource: Resource, id: string): string | number {
  return resource.id.format === "int" ? Number(id) : id;
}
