import type { Lie } from "../../declarations/schema/lies.ts";
import type { HeaderRequirement, Mint, Requirement } from "../../declarations/schema/auth.ts";
import type { Paging } from "../../declarations/schema/pagination.ts";
import type { Resource, TimeFormat, Vendor } from "../../declarations/schema/vendor.ts";
import type { Write } from "../../declarations/schema/writes.ts";
import type { Gateway } from "../../declarations/schema/gateways.ts";
import type { DocsProfile } from "../../declarations/schema/docs-profile.ts";
import type { DocParam } from "../paging/define.ts";
import { pagingDocParams } from "../paging/index.ts";
import type { DocExports } from "../exports/doc-model.ts";
import type { Window } from "../../declarations/schema/windows.ts";

export type { DocParam } from "../paging/define.ts";

/** A documented field of a resource. */
export interface DocField {
  name: string;
  type: Resource["fields"][number]["type"];
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
export interface DocResource {
  name: string;
  plural: string;
  description: string;
  idField: string;
  idFormat: Resource["id"];
  fields: DocField[];
  parent?: string;
  /**
   * `params` are the list's own parameters (filters, flags); its paging
   * parameters follow from `paging` (`listParams`). `operation` names the
   * gateway operation that lists it when there is no REST list (`path` is then the gateway's).
   */
  list?: {
    path: string;
    paging: Paging;
    incremental: boolean;
    params: DocParam[];
    operation?: string;
    skipsAtPageBoundary?: number;
    /** The time window the list is read in, as the docs state it, and the first day it holds (ISO date). */
    window?: { declared: Window; historyStart: string };
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
export interface DocModel {
  vendor: Pick<Vendor, "id" | "name" | "category" | "summary" | "envPrefix">;
  profile: DocsProfile;
  /** Vendor root URL shown in examples. */
  baseUrl: string;
  /** Per-release marker printed on every page and in the OpenAPI document. */
  canary: string;
  timeFormat: TimeFormat;
  /** The vendor clock's zone settings (local time formats). */
  timeZone: { zone?: string; zoneField?: string };
  serverTimeHeader?: string;
  credentials: Vendor["auth"]["credentials"];
  mints: Mint[];
  present: Requirement[];
  /** Deprecated static credential still accepted instead of `present`. */
  legacy?: HeaderRequirement;
  paging: Paging;
  envelope: Vendor["envelope"];
  errors: Vendor["errors"];
  incremental?: Vendor["incremental"];
  deletes: Vendor["deletes"];
  rateLimit?: Vendor["rateLimit"];
  webhooks?: Vendor["webhooks"];
  /** Instant (ISO 8601, UTC) from which the webhook ack-body protocol is in force, when the vendor switched it on later. */
  ackFrom?: string;
  resources: DocResource[];
  writes: Write[];
  /** RPC gateways (SOAP, XML over POST) and their operations. */
  gateways: Gateway[];
  /** Bulk CSV exports, when the vendor offers them (told as declared). */
  exports?: DocExports;
  changelog: { version: string; date: string; text: string }[];
  /** Lies this model tells (empty for the true profile). */
  lies: Lie[];
}

/** Every documented query parameter of a list: paging first, then its own. */
export function listParams(list: NonNullable<DocResource["list"]>): DocParam[] {
  return [...pagingDocParams(list.paging), ...list.params];
}
