/**
 * @module lies/define
 * The shape of a lie kind: what the documentation says instead of the truth,
 * when such a lie can be told about a vendor at all, how it changes the
 * documentation model, and which served requests it could have misled. One
 * module per kind; `lies/index.ts` lists them.
 */
import { z } from "zod";
import type { DocModel, DocResource } from "../kit/doc-model.ts";

/** Fields every lie declares. */
export const lieCommon = {
  /** Stable id, used in request-log tags (`sl-include-stage-omitted`). */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** How a client finds the truth from responses alone. */
  discover: z.string().min(1),
  /** Changelog line the stale docs print, making the lie look like a real change. */
  changelog: z.string().min(1),
};

/** The parts of a vendor the lie checks read (structural: declarations import this module). */
export interface VendorForLies {
  clock: { format: string };
  paging: { style: string; maxLimit: number; sortRequired?: { param: string } } & Record<string, unknown>;
  auth: { mints: ({ kind: string; issues: string } & Record<string, unknown>)[]; present: ({ kind: string } & Record<string, unknown>)[] };
  resources: {
    name: string;
    list?: string;
    legacyList?: { path: string; truncateAt?: number };
    skipsAtPageBoundary?: number;
    paging?: { style: string; maxLimit: number; sortRequired?: { param: string } } & Record<string, unknown>;
    fields: { name: string; onlyWith?: { param: string } }[];
    embeds?: { field: string }[];
  }[];
  incremental?: { param: string };
  rateLimit?: { limit: number; cooldownS: number; retryAfter: string };
  errors: { wrap?: string; codeField: string; messageField: string };
  deletes: { mode: string } & Record<string, unknown>;
}

/** What the engine knows about a served request when it tags lies. */
export interface ServedFacts {
  /** What the matched route did (`list`, `get`, `feed`, `write`, `mint`, ...), or null when none matched. */
  route: string | null;
  /** The resource listed or read, or the entity written. */
  resource?: string;
  /** Whether the list served has numbered pages with a first-page number. */
  numberedPages?: boolean;
  /** The token a mint route issues. */
  mintIssues?: string;
  status: number;
  authOutcome: string;
}

export interface LieKind<S extends z.ZodObject = z.ZodObject, L = z.infer<S>> {
  schema: S;
  /** Why this lie cannot be told about the vendor (it names nothing real, or says the truth), or null. */
  problem(v: VendorForLies, lie: L): string | null;
  /** Changes the documentation model so it says what the lie says. */
  tell(m: DocModel, lie: L): void;
  /** Whether serving this request exercised the behaviour the lie misdescribes. */
  touches(lie: L, f: ServedFacts): boolean;
  /** Where in the generated docs telling it may change anything: OpenAPI JSON paths and page slugs. */
  areas: { openapi: RegExp; pages: RegExp };
}

export function defineLie<S extends z.ZodObject>(kind: LieKind<S>): LieKind<S> {
  return kind;
}

export function lieKindOf(k: LieKind): string {
  return (k.schema.shape.kind as z.ZodLiteral<string>).value;
}

/** The resources of a model a lie is about (all when it names none). */
export function targets(m: DocModel, resource: string | undefined): DocResource[] {
  return m.resources.filter((r) => !resource || r.name === resource);
}

/** Whether a served request concerned the lie's resource (any, when it names none). */
export function inScope(f: ServedFacts, resource: string | undefined): boolean {
  return !resource || f.resource === resource;
}

/** Whether a served request read records (lists, single reads, feeds). */
export function isRead(f: ServedFacts): boolean {
  return f.route === "list" || f.route === "get" || f.route === "feed";
}
