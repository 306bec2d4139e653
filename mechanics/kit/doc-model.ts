import type { DocParam } from "../paging/define.ts";
import { type PagingLike, pagingDocParams } from "../paging/index.ts";
import type { DocExports } from "../exports/doc-model.ts";

export type { DocParam } from "../paging/define.ts";

/**
 * The parts of a vendor declaration the docs model carries, as a structural
 * view: the mechanics sit below the declarations, so the model names no
 * schema type. Every type below takes the vendor as `V`; the lie modules read
 * this view, and `workers/docs/model.ts` fills it with the whole `Vendor`.
 */
export interface VendorForDocs {
  id: string;
  name: string;
  category: string;
  summary: string;
  envPrefix: string;
  clock: { format: string };
  auth: {
    credentials: { name: string }[];
    mints: ({ kind: string; issues: string; path: string } & Record<string, unknown>)[];
    present: ({ kind: string } & Record<string, unknown>)[];
    legacy?: { kind: string } & Record<string, unknown>;
  };
  paging: PagingLike & Record<string, unknown>;
  resources: {
    id: { format: string };
    fields: { type: string }[];
    window?: { style: string } & Record<string, unknown>;
  }[];
  envelope: Record<string, unknown>;
  errors: { wrap?: string; codeField: string; messageField: string };
  incremental?: { param: string } & Record<string, unknown>;
  deletes: { mode: string } & Record<string, unknown>;
  rateLimit?: { limit: number; cooldownS: number; retryAfter: string };
  webhooks?: { ack?: { field: string } & Record<string, unknown> } & Record<string, unknown>;
  writes: { name: string }[];
  gateways: { style: string }[];
  lies: { id: string; kind: string; changelog: string }[];
}

type ResourceOf<V extends VendorForDocs> = V["resources"][number];

/** A documented field of a resource. */
export interface DocField<V extends VendorForDocs = VendorForDocs> {
  name: string;
  type: ResourceOf<V>["fields"][number]["type"];
  description: string;
  nullable: boolean;
  /** Documented as present only when this flag is sent. */
  onlyWith?: { param: string; value: string };
  /** Entity whose id this field holds (refs and parents), for typing examples. */
  refersTo?: string;
  /** Example value for a documented field the engine does not serve (phantom). */
  phantomExample?: unknown;
}

/** One example record (raw data, timestamps in ms); `children` holds every child of each embed, by embed field. */
export interface DocExample {
  id: string;
  data: Record<string, unknown>;
  deleted: boolean;
  children?: Record<string, DocExample[]>;
}

/** An embedded child array as the docs describe it. */
export interface DocEmbed {
  /** Field holding the array. */
  field: string;
  /** The child entity. */
  entity: string;
  /** Most children the array holds; unsaid when the docs call it complete. */
  limit?: number;
  /** Field saying whether children were left out; unsaid when the docs call the array complete. */
  flag?: string;
}

/** A documented resource. */
export interface DocResource<V extends VendorForDocs = VendorForDocs> {
  name: string;
  plural: string;
  description: string;
  idField: string;
  idFormat: ResourceOf<V>["id"];
  fields: DocField<V>[];
  parent?: string;
  /**
   * `params` are the list's own parameters (filters, flags); its paging
   * parameters follow from `paging` (`listParams`). `operation` names the
   * gateway operation that lists it when there is no REST list (`path` is then the gateway's).
   */
  list?: {
    path: string;
    paging: V["paging"];
    incremental: boolean;
    params: DocParam[];
    operation?: string;
    skipsAtPageBoundary?: number;
    /** The time window the list is read in, as the docs state it, and the first day it holds (ISO date). */
    window?: { declared: NonNullable<ResourceOf<V>["window"]>; historyStart: string };
  };
  /** `operation` as for `list`. */
  get?: { path: string; operation?: string };
  /** The deprecated older list, which stops after `truncateAt` records (unsaid when the docs hide it). */
  legacyList?: { path: string; truncateAt?: number };
  /** Children served inside each record (`limit` and `flag` unsaid when the docs call the array complete). */
  embeds: DocEmbed[];
  /** Live records in the example world, shown as the example total. */
  count: number;
  /** Example records (raw data, timestamps in ms), rendered in the documented format. */
  examples: DocExample[];
}

/**
 * Everything the documentation says about a vendor. Built truthfully from the
 * declaration, then changed by the declared lies for the stale and sparse
 * profiles; every renderer reads only this.
 */
export interface DocModel<V extends VendorForDocs = VendorForDocs> {
  vendor: Pick<V, "id" | "name" | "category" | "summary" | "envPrefix">;
  /** Which documentation this is (`workers/docs/model.ts` names the profiles). */
  profile: string;
  /** Vendor root URL shown in examples. */
  baseUrl: string;
  /** Per-release marker printed on every page and in the OpenAPI document. */
  canary: string;
  timeFormat: V["clock"]["format"];
  /** The vendor clock's zone settings (local time formats). */
  timeZone: { zone?: string; zoneField?: string };
  serverTimeHeader?: string;
  credentials: V["auth"]["credentials"];
  mints: V["auth"]["mints"];
  present: V["auth"]["present"];
  /** Deprecated static credential still accepted instead of `present`. */
  legacy?: NonNullable<V["auth"]["legacy"]>;
  paging: V["paging"];
  envelope: V["envelope"];
  errors: V["errors"];
  incremental?: V["incremental"];
  deletes: V["deletes"];
  rateLimit?: V["rateLimit"];
  webhooks?: V["webhooks"];
  /** Instant (ISO 8601, UTC) from which the webhook ack-body protocol is in force, when the vendor switched it on later. */
  ackFrom?: string;
  resources: DocResource<V>[];
  writes: V["writes"];
  /** RPC gateways (SOAP, XML over POST) and their operations. */
  gateways: V["gateways"];
  /** Bulk CSV exports, when the vendor offers them (told as declared). */
  exports?: DocExports;
  changelog: { version: string; date: string; text: string }[];
  /** Lies this model tells (empty for the true profile). */
  lies: V["lies"];
}

/** Every documented query parameter of a list: paging first, then its own. */
export function listParams<V extends VendorForDocs>(list: NonNullable<DocResource<V>["list"]>): DocParam[] {
  return [...pagingDocParams(list.paging), ...list.params];
}
