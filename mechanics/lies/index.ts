/**
 * @module lies
 * The registry of lie kinds, the only list of them, and the kind-blind
 * operations built on it: checking declared lies, telling them in a docs
 * model, tagging the requests they touch.
 */
import type { DocModel } from "../kit/doc-model.ts";
import { type LieKind, lieKindOf, type ServedFacts, type VendorForLies } from "./define.ts";
import { ackField } from "./ack-field.ts";
import { cursorLifetime } from "./cursor-lifetime.ts";
import { deleteSemantics } from "./delete-semantics.ts";
import { embedComplete } from "./embed-complete.ts";
import { errorShape } from "./error-shape.ts";
import { headerName } from "./header-name.ts";
import { legacyComplete } from "./legacy-complete.ts";
import { defectHidden } from "./defect-hidden.ts";
import { omittedFlag } from "./omitted-flag.ts";
import { omittedSort } from "./omitted-sort.ts";
import { pageBase } from "./page-base.ts";
import { pageSizeCap } from "./page-size-cap.ts";
import { paramName } from "./param-name.ts";
import { phantomField } from "./phantom-field.ts";
import { phantomFlag } from "./phantom-flag.ts";
import { rateWindow } from "./rate-window.ts";
import { retryAfterStyle } from "./retry-after-style.ts";
import { signatureRecipe } from "./signature-recipe.ts";
import { timeFormat } from "./time-format.ts";
import { tokenExpiry } from "./token-expiry.ts";
import { windowSpan } from "./window-span.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const LIE_KINDS = [
  paramName,
  headerName,
  pageBase,
  timeFormat,
  retryAfterStyle,
  phantomField,
  phantomFlag,
  omittedFlag,
  tokenExpiry,
  pageSizeCap,
  rateWindow,
  signatureRecipe,
  errorShape,
  deleteSemantics,
  omittedSort,
  legacyComplete,
  defectHidden,
  embedComplete,
  windowSpan,
  ackField,
  cursorLifetime,
] as const;

const BY_KIND = new Map<string, LieKind<never, unknown>>(LIE_KINDS.map((k) => [lieKindOf(k as unknown as LieKind), k as unknown as LieKind<never, unknown>]));

/** The module of a declared lie's kind. */
export function lieKind(lie: { kind: string }): LieKind<never, unknown> {
  const k = BY_KIND.get(lie.kind);
  if (!k) throw new Error(`unknown lie kind "${lie.kind}"`);
  return k;
}

/** Why a lie cannot be told about this vendor, or null when it can. */
export function lieProblem(v: VendorForLies, lie: { kind: string; resource?: string }): string | null {
  if (lie.resource && !v.resources.some((r) => r.name === lie.resource)) return `unknown resource "${lie.resource}"`;
  return lieKind(lie).problem(v, lie as never);
}

/** Tells one lie in a docs model. */
export function tellLie(m: DocModel, lie: { kind: string }): void {
  lieKind(lie).tell(m, lie as never);
}

/** Ids of the lies a served request touched, in declaration order. */
export function liesTouching(lies: readonly { kind: string; id: string }[], facts: ServedFacts): string[] {
  return lies.filter((lie) => lieKind(lie).touches(lie as never, facts)).map((lie) => lie.id);
}

export type { ServedFacts, VendorForLies } from "./define.ts";

/** A documentation lie a vendor declares: the union of every module's schema in this registry, by `kind`. */
export const Lie = unionOf("kind", LIE_KINDS);
export type Lie = z.infer<typeof Lie>;
