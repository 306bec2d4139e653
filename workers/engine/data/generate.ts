import type { Resource, Vendor } from "../../../declarations/schema/vendor.ts";
import type { Mutation } from "../../../declarations/schema/timeline.ts";
import { checkpointTime } from "./clock.ts";
import { fieldValue, type FieldContext } from "./field-values.ts";
import { numberedId } from "../../../declarations/schema/id-numbers.ts";
import { recordId } from "./ids.ts";
import { intBetween, pickDistinct, pickOne, rngFor, type Rng } from "./prng.ts";

/** One record of a vendor's state, timestamps as data-clock milliseconds. */
export interface StateRecord {
  /** Entity name. */
  entity: string;
  /** Record id as stored (ints as decimal strings). */
  id: string;
  /** Creation order across the vendor; lists are served in this order. */
  seq: number;
  /** Parent id for subresources. */
  parent: string | null;
  /** Field values by wire name. */
  data: Record<string, unknown>;
  /** Last modification on the data clock. */
  updatedMs: number;
  /** Deletion time on the data clock, or null while live. */
  deletedMs: number | null;
}

const DAY = 86_400_000;

/** Generators that describe a person rather than a vendor's record of them. */
const PERSON_GENS = new Set(["firstName", "lastName", "email", "phone"]);

/**
 * Builds a vendor's records as they stand at a checkpoint: the seeded
 * population, then each checkpoint's mutations in order. A pure function of
 * (declaration, seed, checkpoint).
 */
export function buildState(vendor: Vendor, seed: number, checkpoint: number, scale = 1): StateRecord[] {
  const builder = new StateBuilder(vendor, seed, scale);
  builder.seed();
  for (const cp of vendor.timeline) {
    if (cp.checkpoint > checkpoint) break;
    cp.mutations.forEach((m, i) => builder.apply(m, cp.checkpoint, i));
  }
  return builder.records;
}

class StateBuilder {
  readonly records: StateRecord[] = [];
  private readonly byEntity = new Map<string, StateRecord[]>();
  private readonly resources: Map<string, Resource>;
  /** Live records per entity, rebuilt after a create or delete touches the entity. */
  private readonly liveCache = new Map<string, StateRecord[]>();

  private readonly vendor: Vendor;
  private readonly seedValue: number;
  private readonly scale: number;

  constructor(vendor: Vendor, seedValue: number, scale: number) {
    this.vendor = vendor;
    this.seedValue = seedValue;
    this.scale = scale;
    this.resources = new Map(vendor.resources.map((r) => [r.name, r]));
    for (const r of vendor.resources) this.byEntity.set(r.name, []);
  }

  seed(): void {
    const epoch = checkpointTime(this.vendor.clock, 0);
    for (const r of this.vendor.resources) {
      if (typeof r.count === "number") {
        for (let i = 0; i < r.count * this.scale; i++) this.create(r, null, this.seedTimes(r, epoch));
      } else {
        const [min, max] = r.count.perParent;
        for (const parent of this.live(r.parent!)) {
          const n = intBetween(this.rng(r.name, "per-parent", parent.id), min, max);
          for (let i = 0; i < n; i++) this.create(r, parent.id, this.seedTimes(r, epoch, parent));
        }
      }
    }
  }

  apply(m: Mutation, checkpoint: number, index: number): void {
    const rng = this.rng("timeline", checkpoint, index);
    const resource = this.resources.get(m.entity)!;
    const from = checkpointTime(this.vendor.clock, checkpoint - 1);
    const to = checkpointTime(this.vendor.clock, checkpoint);
    // Changes land in the second half of the interval: a client that watermarks at the
    // server's "now" while the previous checkpoint is served must not miss them.
    const half = Math.floor((to - from) / 2000);
    const at = () => from + 1000 * (half + intBetween(rng, 1, half));
    switch (m.op) {
      case "create":
        for (let i = 0; i < m.count; i++) {
          const parent = resource.parent ? pickOne(rng, this.live(resource.parent)) : null;
          const t = at();
          this.create(resource, parent?.id ?? null, { createdMs: t, updatedMs: t });
        }
        return;
      case "update": {
        // Back-dated like a back-dated delete: older than every change of the interval before,
        // newer than the changed record's own last change.
        const earliest = from - 1000 * (half + 3 * 86_400);
        const pool = m.recorded === "backdated" ? this.live(m.entity).filter((r) => r.updatedMs < earliest) : this.live(m.entity);
        for (const rec of pickDistinct(rng, pool, m.count)) {
          const fields = resource.fields.filter((f) => m.fields.includes(f.name));
          const t = m.recorded === "backdated" ? from - 1000 * (half + intBetween(rng, 2 * 3600, 3 * 86_400)) : at();
          for (const f of fields) {
            rec.data[f.name] = fieldValue(f, this.rng(m.entity, rec.id, f.name, "cp", checkpoint), this.context(resource, rec, rec.data));
          }
          this.touch(resource, rec, t);
        }
        return;
      }
      case "delete": {
        // The previous interval's changes land in its second half: a back-dated deletion is older than
        // all of them, and newer than the last change of the record it deletes.
        const earliest = from - 1000 * (half + 3 * 86_400);
        const pool = m.recorded === "backdated" ? this.live(m.entity).filter((r) => r.updatedMs < earliest) : this.live(m.entity);
        for (const rec of pickDistinct(rng, pool, m.count)) {
          const t = m.recorded === "backdated" ? from - 1000 * (half + intBetween(rng, 2 * 3600, 3 * 86_400)) : at();
          rec.deletedMs = t;
          this.liveCache.delete(m.entity);
          this.touch(resource, rec, t);
        }
        return;
      }
      case "restore": {
        // Only records deleted before this interval began: each is put back after its deletion.
        const pool = (this.byEntity.get(m.entity) ?? []).filter((r) => r.deletedMs !== null && r.deletedMs < from);
        for (const rec of pickDistinct(rng, pool, m.count)) {
          rec.deletedMs = null;
          this.liveCache.delete(m.entity);
          this.touch(resource, rec, at());
        }
        return;
      }
      case "regenerate": {
        // One moment: every live record is deleted and the new ones are numbered from restartAt.
        const t = at();
        for (const rec of this.live(m.entity)) {
          rec.deletedMs = t;
          this.touch(resource, rec, t);
        }
        this.liveCache.delete(m.entity);
        for (let i = 0; i < m.count; i++) {
          const parent = resource.parent ? pickOne(rng, this.live(resource.parent)) : null;
          this.create(resource, parent?.id ?? null, { createdMs: t, updatedMs: t }, m.restartAt + i);
        }
        return;
      }
      case "end": {
        let open = this.live(m.entity).filter((r) => r.data[m.field] === null);
        if (m.among === "newest-per-parent") {
          const newest = new Map<string | null, StateRecord>();
          for (const rec of open) {
            const held = newest.get(rec.parent);
            if (!held || this.createdOf(rec) > this.createdOf(held)) newest.set(rec.parent, rec);
          }
          open = [...newest.values()];
        }
        const refs = resource.fields.filter((f) => f.gen.gen === "ref").map((f) => f.name);
        const same = (a: StateRecord, b: StateRecord) => a.parent === b.parent && refs.every((f) => a.data[f] === b.data[f]);
        pickDistinct(rng, open, m.count).forEach((rec, i) => {
          if (rec.data[m.field] !== null) return;
          const t = at();
          // Scheduled ahead: recorded now, stamped with the day the person is due to leave.
          const stamp = m.dueInDays ? t + 86_400_000 * intBetween(rng, m.dueInDays[0], m.dueInDays[1]) : t;
          // The person leaves the pool: every open membership of theirs there ends at once.
          for (const other of this.live(m.entity)) {
            if (other.data[m.field] !== null || !same(other, rec)) continue;
            other.data[m.field] = stamp;
            this.touch(resource, other, t);
          }
          if (i >= m.readd) return;
          // Added again after the end, before the checkpoint.
          const again = t + 1000 * intBetween(rng, 1, Math.max(1, Math.floor((to - t) / 1000)));
          this.create(resource, rec.parent, { createdMs: again, updatedMs: again });
          const copy = this.records[this.records.length - 1];
          for (const f of refs) copy.data[f] = rec.data[f];
        });
        return;
      }
      case "follow-up": {
        // The newest live record of each ref value (recorded last, then the higher id): what a follow-up follows.
        const newest = new Map<string, StateRecord>();
        for (const rec of this.live(m.entity)) {
          const key = String(rec.data[m.ref]);
          const held = newest.get(key);
          const [t, th] = [this.createdOf(rec), held ? this.createdOf(held) : -Infinity];
          if (!held || t > th || (t === th && rec.id > held.id)) newest.set(key, rec);
        }
        for (const rec of pickDistinct(rng, [...newest.values()], m.count)) {
          const base = this.createdOf(rec);
          const t = m.recorded === "same-instant" ? base : base - 1000 * intBetween(rng, 3600, 30 * 86_400);
          this.create(resource, rec.parent, { createdMs: t, updatedMs: t });
          this.records[this.records.length - 1].data[m.ref] = rec.data[m.ref];
        }
        return;
      }
      case "advance-stage": {
        const stageField = resource.fields.find((f) => f.gen.gen === "stage");
        const stages = resource.stages ?? [];
        if (!stageField) return;
        const movable = this.recent(m.entity, m.since).filter((r) => stages.indexOf(String(r.data[stageField.name])) < stages.length - 1);
        for (const rec of pickDistinct(rng, movable, m.count)) {
          rec.data[stageField.name] = stages[stages.indexOf(String(rec.data[stageField.name])) + 1];
          this.touch(resource, rec, at());
        }
        return;
      }
      case "reopen-stage": {
        const stageField = resource.fields.find((f) => f.gen.gen === "stage");
        const stages = resource.stages ?? [];
        if (!stageField || stages.length < 2) return;
        const finished = this.recent(m.entity, m.since).filter((r) => String(r.data[stageField.name]) === stages[stages.length - 1]);
        for (const rec of pickDistinct(rng, finished, m.count)) {
          rec.data[stageField.name] = stages[stages.length - 2];
          this.touch(resource, rec, at());
        }
        return;
      }
    }
  }

  private seedTimes(r: Resource, epoch: number, parent?: StateRecord): { createdMs: number; updatedMs: number } {
    const index = this.byEntity.get(r.name)!.length;
    const rng = this.rng(r.name, index, "times");
    const floor = parent ? this.createdOf(parent) : epoch - 400 * DAY;
    const createdMs = floor + Math.floor((rng() * Math.max(1, epoch - DAY - floor)) / 1000) * 1000;
    const updatedMs = createdMs + Math.floor((rng() * (epoch - createdMs)) / 1000) * 1000;
    return { createdMs, updatedMs };
  }

  /** A stream keyed by (seed, vendor, ...parts). */
  private rng(...parts: (string | number)[]): Rng {
    return rngFor(this.seedValue, this.vendor.id, ...parts);
  }

  private createdOf(rec: StateRecord): number {
    const resource = this.resources.get(rec.entity)!;
    const f = resource.fields.find((x) => x.gen.gen === "createdAt");
    return f ? Number(rec.data[f.name]) : rec.updatedMs;
  }

  /** Creates the entity's next record; `idNumber` numbers it explicitly (a regeneration) instead of by its index. */
  private create(r: Resource, parentId: string | null, times: { createdMs: number; updatedMs: number }, idNumber?: number): void {
    const list = this.byEntity.get(r.name)!;
    const index = list.length;
    const id = idNumber === undefined ? recordId(r, index, times.createdMs, this.seedValue) : numberedId(r.id, idNumber);
    const rec: StateRecord = { entity: r.name, id, seq: this.records.length + 1, parent: parentId, data: {}, updatedMs: times.updatedMs, deletedMs: null };
    rec.data[r.idField] = id;
    const ctx = this.context(r, rec, rec.data, times);
    for (const f of r.fields) {
      if (f.name === r.idField) continue;
      // Person fields of person resources are keyed by the person, not the vendor: the
      // n-th person is the same human (name, email, phone) in every vendor of a world.
      const personal = r.person && PERSON_GENS.has(f.gen.gen);
      rec.data[f.name] = fieldValue(f, personal ? rngFor(this.seedValue, "person", index, f.gen.gen) : this.rng(r.name, index, f.name), ctx);
    }
    list.push(rec);
    this.records.push(rec);
    this.liveCache.delete(r.name);
  }

  private context(r: Resource, rec: StateRecord, data: Record<string, unknown>, times?: { createdMs: number; updatedMs: number }): FieldContext {
    return {
      record: data,
      parentId: rec.parent,
      refId: (entity: string, rng: Rng) => {
        const pool = this.live(entity);
        return pool.length ? pickOne(rng, pool).id : null;
      },
      stages: r.stages ?? [],
      createdMs: times?.createdMs ?? this.createdOf(rec),
      updatedMs: times?.updatedMs ?? rec.updatedMs,
    };
  }

  private touch(r: Resource, rec: StateRecord, t: number): void {
    rec.updatedMs = Math.max(rec.updatedMs, t);
    for (const f of r.fields) if (f.gen.gen === "updatedAt") rec.data[f.name] = rec.updatedMs;
  }

  /** Live records, or with `since` only those last changed after checkpoint `since - 1`. */
  private recent(entity: string, since: number | undefined): StateRecord[] {
    if (since === undefined) return this.live(entity);
    const after = checkpointTime(this.vendor.clock, since - 1);
    return this.live(entity).filter((r) => r.updatedMs > after);
  }

  private live(entity: string): StateRecord[] {
    let cached = this.liveCache.get(entity);
    if (!cached) {
      cached = (this.byEntity.get(entity) ?? []).filter((r) => r.deletedMs === null);
      this.liveCache.set(entity, cached);
    }
    return cached;
  }
}
