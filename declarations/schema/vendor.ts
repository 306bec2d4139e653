import { Exports } from "../../mechanics/exports/index.ts";
import { Incremental } from "../../mechanics/incremental/index.ts";
import { Deletes } from "../../mechanics/deletes/index.ts";
import { z } from "zod";
import { TimeFormat } from "../../mechanics/time-formats/index.ts";
import { Auth } from "./auth.ts";
import { Embed } from "./embeds.ts";
import { Field } from "./fields.ts";
import { Paging } from "./pagination.ts";
import { Checkpoint } from "./timeline.ts";
import { Write } from "./writes.ts";
import { Fault } from "./faults.ts";
import { Webhooks } from "./webhooks.ts";
import { checkLies } from "./lie-references.ts";
import { Lie } from "./lies.ts";
import { checkVendorReferences } from "./vendor-references.ts";
import { Gateway } from "./gateways.ts";
import { checkGateways } from "./gateway-references.ts";
import { Window } from "./windows.ts";

/** How a vendor writes timestamps: one module of `mechanics/time-formats/` per name. */
export { TimeFormat };

/** The vendor's own clock. */
export const Clock = z.object({
  /** Data clock at checkpoint 0 (ISO instant). Seeded records are older than this. */
  epoch: z.string().datetime(),
  /** Data-clock time between two checkpoints. */
  checkpointSpacingS: z.number().int().positive().default(86_400),
  /** Data-clock seconds that one served request advances "now" (writes are stamped with it). */
  secondsPerRequest: z.number().int().nonnegative().default(1),
  format: TimeFormat,
  /** Offset of the vendor's wall clock from true time, used to check signature timestamps. */
  wireOffsetS: z.number().int().default(0),
  /** The vendor's own IANA time zone (local time formats write wall-clock times in it). */
  zone: z.string().optional(),
  /** Record field naming a record's own IANA zone (a venue's), for local time formats. */
  zoneField: z.string().optional(),
  /** Response header reporting the vendor's data-clock "now" in `format`. */
  serverTimeHeader: z.string().optional(),
});
export type Clock = z.infer<typeof Clock>;

export const Resource = z.object({
  /** Singular entity name (`candidate`). */
  name: z.string().regex(/^[a-z][a-z_]*$/),
  /** Plural used in docs and default paths (`candidates`). */
  plural: z.string(),
  description: z.string().min(1),
  /** Id format of this entity. */
  id: z.discriminatedUnion("format", [
    z.object({ format: z.literal("prefixed"), prefix: z.string(), width: z.number().int().positive() }),
    z.object({ format: z.literal("ulid") }),
    z.object({ format: z.literal("int"), start: z.number().int().default(1) }),
  ]),
  /** Wire name of the id field. */
  idField: z.string().default("id"),
  /** Seeded records (for subresources: per parent, drawn in [min, max]). */
  count: z.union([z.number().int().nonnegative(), z.object({ perParent: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]) })]),
  /** Parent entity of a subresource. */
  parent: z.string().optional(),
  fields: z.array(Field).min(1),
  /**
   * The records are people: the n-th record of every person resource in a world
   * has the same name, email and phone, so records can be matched across vendors.
   */
  person: z.boolean().default(false),
  /** Ordered stage vocabulary, used by `stage` fields and `advance-stage` mutations. */
  stages: z.array(z.string()).optional(),
  /** List endpoint (`:parentId` for subresources); none when the entity cannot be listed. */
  list: z.string().startsWith("/").optional(),
  /** Single-record endpoint with `:id`. */
  get: z.string().startsWith("/").optional(),
  /** Whether the list honours the vendor's incremental filter. */
  incremental: z.boolean().default(false),
  /** Per-resource paging override. */
  paging: Paging.optional(),
  /**
   * An older version of the list, still served and documented as deprecated:
   * it pages like the current one but, when `truncateAt` is given, stops
   * silently after that many records (totals and next links say there is no more).
   */
  legacyList: z.object({ path: z.string().startsWith("/"), truncateAt: z.number().int().positive().optional() }).optional(),
  /**
   * A known defect of the current list (the legacy one does not have it):
   * each next page starts this many records past the end of the page served,
   * so the records at page boundaries are never listed by it.
   */
  skipsAtPageBoundary: z.number().int().positive().optional(),
  /** Child records served inside each record, truncated (see `Embed`). */
  embeds: z.array(Embed).default([]),
  /** The list is read one time window at a time (see `Window`). */
  window: Window.optional(),
});
export type Resource = z.infer<typeof Resource>;

/** Shape of list responses. */
export const Envelope = z.object({
  /** Field holding the items. */
  items: z.string(),
  /** Field holding the total (when the paging style reports one). */
  total: z.string().default("total"),
  /** Field holding the next cursor or the next offset/page (when paging `next` is `body`). */
  next: z.string().default("next"),
});

/** Shape of error bodies. */
export const ErrorShape = z.object({
  /** Wrap the error in an object under this key (`{"error": {...}}`), or put fields at the root. */
  wrap: z.string().optional(),
  codeField: z.string(),
  messageField: z.string(),
  /** Field listing per-field validation errors on 422s. */
  fieldErrorsField: z.string().default("field_errors"),
  /** RPC responses: field that says whether the call succeeded. */
  rpcOkField: z.string().default("success"),
  /** Sentences the Errors page adds under its table: how the vendor's answers can fail beyond a status code. */
  notes: z.array(z.string().min(1)).optional(),
});

/** What happens to deleted records: one style module of `mechanics/deletes/` per `mode`. */
export { Deletes };

/** How lists return only what changed: one style module of `mechanics/incremental/` per `style`. */
export { Incremental };

/** Bulk CSV exports a client requests, polls and downloads: one style module of `mechanics/exports/` per `style`. */
export { Exports };

export const RateLimit = z.object({
  /** Requests allowed per credential before the window closes. */
  limit: z.number().int().positive(),
  /** Seconds the window stays closed after the first refusal. */
  cooldownS: z.number().int().positive(),
  /** How the wait is signalled. */
  retryAfter: z.enum(["seconds", "http-date", "body"]),
  /** Which quota headers are sent on every response. */
  headers: z.enum(["x-ratelimit", "ietf", "none"]),
});

export const VendorSchema = z
  .object({
    /** Stable id (`staffline`). */
    id: z.string().regex(/^[a-z][a-z0-9]*$/),
    /** Product name shown in docs. */
    name: z.string(),
    /** Kind of product. */
    category: z.enum(["ats", "hris", "job-board", "scheduling", "payroll", "background-check", "onboarding", "skills", "staffing", "marketplace", "crm"]),
    /** One-paragraph pitch in the vendor's voice. */
    summary: z.string().min(1),
    /** Prefix for environment variable names (`STAFFLINE`). */
    envPrefix: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    clock: Clock,
    auth: Auth,
    paging: Paging,
    envelope: Envelope,
    errors: ErrorShape,
    resources: z.array(Resource).min(1),
    incremental: Incremental.optional(),
    deletes: Deletes,
    rateLimit: RateLimit.optional(),
    writes: z.array(Write).default([]),
    timeline: z.array(Checkpoint).default([]),
    /** Events the vendor pushes to a subscriber, when it has any. */
    webhooks: Webhooks.optional(),
    /** Bulk CSV exports (request, poll, download), when the vendor offers them. */
    exports: Exports.optional(),
    /** Faults the vendor can inject when a scenario arms them. */
    faults: z.array(Fault).default([]),
    /** Deliberate documentation errors, told by the `stale` and `sparse` docs profiles. */
    lies: z.array(Lie).default([]),
    /** RPC endpoints taking calls as XML documents (SOAP, XML over POST), mapped onto the resources and writes above. */
    gateways: z.array(Gateway).default([]),
  })
  .superRefine(checkVendorReferences)
  .superRefine(checkGateways)
  .superRefine((v, ctx) => checkLies(v as never, ctx));

export type Vendor = z.infer<typeof VendorSchema>;
export type VendorInput = z.input<typeof VendorSchema>;
