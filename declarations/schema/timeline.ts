import { z } from "zod";

/** One scripted change applied when the vendor reaches a checkpoint. */
export const Mutation = z.discriminatedUnion("op", [
  /** New records, generated like seeded ones. */
  z.object({ op: z.literal("create"), entity: z.string(), count: z.number().int().positive() }),
  /**
   * Regenerate some fields of random live records. `backdated`: each change is dated before every
   * change of the interval before this one and after the record's own last change (a change keyed
   * in late, dated when it took effect), so it first shows at this checkpoint with a time older
   * than anything the previous checkpoint showed.
   */
  z.object({
    op: z.literal("update"),
    entity: z.string(),
    count: z.number().int().positive(),
    fields: z.array(z.string()).min(1),
    recorded: z.literal("backdated").optional(),
  }),
  /**
   * Delete random live records. `backdated`: each deletion is dated before every change of the
   * interval before this one (a deletion keyed in late, dated when it took effect), so it first
   * shows at this checkpoint with a time older than anything the previous checkpoint showed.
   */
  z.object({ op: z.literal("delete"), entity: z.string(), count: z.number().int().positive(), recorded: z.literal("backdated").optional() }),
  /**
   * Put back random records deleted before this interval (a deletion made by mistake and undone):
   * each is live again with the data it had, changed when it was put back, and gone from the
   * vendor's deletion feed.
   */
  z.object({ op: z.literal("restore"), entity: z.string(), count: z.number().int().positive() }),
  /**
   * Move random live records one step along the entity's stage vocabulary. `since`: only records
   * last changed after checkpoint `since - 1` (those a recent checkpoint touched, such as the ones
   * a `reopen-stage` moved back).
   */
  z.object({ op: z.literal("advance-stage"), entity: z.string(), count: z.number().int().positive(), since: z.number().int().positive().optional() }),
  /**
   * Move random live records at the last stage back one step (an ended placement extended).
   * `since`: only records last changed after checkpoint `since - 1` (those that reached the last
   * stage lately, not the long finished).
   */
  z.object({ op: z.literal("reopen-stage"), entity: z.string(), count: z.number().int().positive(), since: z.number().int().positive().optional() }),
  /**
   * New records that follow live ones: each copies the `ref` field of the newest record of its
   * `ref` value (a second fee adjustment of an adjusted placement) and is recorded at the same
   * instant as that record (`same-instant`) or before it (`backdated`: created after it, so a
   * list shows it later, yet recorded earlier).
   */
  z.object({ op: z.literal("follow-up"), entity: z.string(), count: z.number().int().positive(), ref: z.string(), recorded: z.enum(["same-instant", "backdated"]) }),
  /**
   * A tenant regeneration: every live record is deleted (as the vendor shows
   * deletes) and `count` new ones are created, numbered from `restartAt`:
   * below the ids issued so far, so the new ids are lower than the old
   * maximum (the check refuses a range that collides with any issued id).
   */
  z.object({ op: z.literal("regenerate"), entity: z.string(), count: z.number().int().positive(), restartAt: z.number().int().positive() }),
  /**
   * End random live records without deleting them (a pool membership removed, kept in the
   * history): each gets the change's instant in its timestamp `field`, null until then, and stays
   * listed, and so does every other open record with the same parent and `ref` fields (a person
   * listed twice in a pool leaves it once). The first `readd` of them are each followed, later in the interval, by a new record
   * with the same parent and `ref` fields (the same person added to the same pool again).
   * `among: "newest-per-parent"` ends only records that are the newest open one of their parent
   * (the latest addition to a pool taken out again). `dueInDays: [min, max]` schedules the ends
   * ahead instead: the change is recorded at its instant, but the stamp it writes is that many whole
   * days later (a removal booked for a date to come: the record is still open until then); such an
   * end re-adds nothing.
   */
  z.object({
    op: z.literal("end"),
    entity: z.string(),
    count: z.number().int().positive(),
    field: z.string(),
    readd: z.number().int().min(0).default(0),
    among: z.enum(["any", "newest-per-parent"]).default("any"),
    dueInDays: z.tuple([z.number().int().positive(), z.number().int().positive()]).optional(),
  }),
]);
export type Mutation = z.infer<typeof Mutation>;

/** The mutations that take the vendor from checkpoint n-1 to n. */
export const Checkpoint = z.object({
  checkpoint: z.number().int().positive(),
  mutations: z.array(Mutation).min(1),
});
export type Checkpoint = z.infer<typeof Checkpoint>;
