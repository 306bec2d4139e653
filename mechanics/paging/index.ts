/**
 * @module paging
 * The registry of paging styles, the only list of them, and the style-blind
 * operations built on it: reading a page request, naming the next page,
 * documenting the parameters.
 */
import { cursorPaging } from "./cursor.ts";
import { type CursorScope, type DocParam, type PagingStyle, styleOf } from "./define.ts";
import { offsetPaging } from "./offset.ts";
import { pagePaging } from "./page.ts";
import type { QueryReader } from "../kit/query-params.ts";
import type { z } from "zod";
import { unionOf } from "../kit/union.ts";

export const PAGING_STYLES = [offsetPaging, pagePaging, cursorPaging] as const;

const BY_STYLE = new Map<string, PagingStyle<never, unknown>>(PAGING_STYLES.map((s) => [styleOf(s as unknown as PagingStyle), s as unknown as PagingStyle<never, unknown>]));

/** The fields every declared paging object has, whatever its style. */
export interface PagingLike {
  style: string;
  defaultLimit: number;
  maxLimit: number;
  overMax: "clamp" | "error";
  total: boolean;
  next: "none" | "body" | "link-header" | "hal";
  sortRequired?: { param: string; value: string };
}

/** The module of a paging object's style. */
export function pagingStyle(p: { style: string }): PagingStyle<never, unknown> {
  const s = BY_STYLE.get(p.style);
  if (!s) throw new Error(`unknown paging style "${p.style}"`);
  return s;
}

/** Names of a paging object's position and size parameters. */
export function pagingParams(p: { style: string }): { position: string; size: string } {
  return pagingStyle(p).params(p);
}

/** Every query parameter a paging object honours (position, size, and the sort it requires). */
export function pagingParamNames(p: { style: string; sortRequired?: { param: string } }): string[] {
  const { position, size } = pagingParams(p);
  return p.sortRequired ? [position, size, p.sortRequired.param] : [position, size];
}

/** A validated page request: where to start and how many. */
export interface PageRequest {
  offset: number;
  limit: number;
}

export type PageParse = { ok: true; page: PageRequest } | { ok: false; param: string; message: string; invalidated?: boolean };

/** Reads the paging parameters of a list request. */
export function parsePage(p: PagingLike, query: QueryReader, scope: CursorScope): PageParse {
  const style = pagingStyle(p);
  const { position, size: sizeParam } = style.params(p);
  const raw = query.get(sizeParam);
  const size = raw === null || raw === "" ? null : /^\d{1,9}$/.test(raw) ? Number(raw) : "bad";
  if (size === "bad" || size === 0) return { ok: false, param: sizeParam, message: `${sizeParam} must be a positive integer` };
  let limit = size ?? p.defaultLimit;
  if (limit > p.maxLimit) {
    if (p.overMax === "error") return { ok: false, param: sizeParam, message: `${sizeParam} must be at most ${p.maxLimit}` };
    limit = p.maxLimit;
  }
  const at = style.readPosition(p, query.get(position), limit, scope);
  if (!at.ok) return { ok: false, param: position, message: at.message, invalidated: at.invalidated };
  // An unsorted list has no stable order: every page is the first one.
  const unsorted = p.sortRequired && query.get(p.sortRequired.param) !== p.sortRequired.value;
  return { ok: true, page: { offset: unsorted ? 0 : at.offset, limit } };
}

/**
 * The query parameters that fetch the page after this one, or null on the
 * last page; `skip` records are passed over first (a defective list's).
 */
export function nextPageParams(p: PagingLike, page: PageRequest, served: number, total: number, scope: CursorScope, skip = 0): Record<string, string> | null {
  const nextOffset = page.offset + served + skip;
  if (served === 0 || nextOffset >= total) return null;
  const style = pagingStyle(p);
  const { position, size } = style.params(p);
  return { [position]: style.nextPosition(p, nextOffset, page.limit, scope), [size]: String(page.limit) };
}

/** The envelope's `next` value for the next page's parameters. */
export function nextBodyValue(p: PagingLike, next: Record<string, string>): unknown {
  return pagingStyle(p).nextBodyValue(p, next[pagingParams(p).position]);
}

/** The paging parameters of a list as the documentation describes them. */
export function pagingDocParams(p: PagingLike): DocParam[] {
  const params: DocParam[] = [
    pagingStyle(p).docs.position(p),
    { name: pagingParams(p).size, role: "size", description: `Records per page (default ${p.defaultLimit}, at most ${p.maxLimit}).`, schema: { type: "integer", minimum: 1, maximum: p.maxLimit } },
  ];
  if (p.sortRequired)
    params.push({
      name: p.sortRequired.param,
      role: "sort",
      value: p.sortRequired.value,
      description: `Send \`${p.sortRequired.value}\` on every page: without it the order is not stable and later pages repeat the first.`,
      schema: { type: "string", enum: [p.sortRequired.value] },
    });
  return params;
}

/** Prose for one paging object. */
export function describePaging(p: PagingLike, items: string, next: string, total: string): string[] {
  const style = pagingStyle(p);
  const lines = [style.docs.howTo(p)];
  lines.push(p.overMax === "error" ? "Larger page sizes are refused with `400`." : "Larger page sizes are cut to the maximum.");
  lines.push(`Records are in \`${items}\`.${p.total ? ` \`${total}\` holds the number of matching records.` : ""}`);
  if (p.next === "body") lines.push(`\`${next}\` holds ${style.docs.nextNoun}, or \`null\` on the last page.`);
  if (p.next === "link-header") lines.push('Every page but the last has a `Link: <url>; rel="next"` header (RFC 8288).');
  if (p.next === "hal") lines.push("Responses carry `_links.self.href` and, except on the last page, `_links.next.href`.");
  if (p.sortRequired) lines.push(`Pages are stable only in a sorted list: send \`${p.sortRequired.param}=${p.sortRequired.value}\` with every page, or every page repeats the first.`);
  return lines;
}

export type { CursorScope, DocParam } from "./define.ts";

/** How a list pages: the union of every module's schema in this registry, by `style`. */
export const Paging = unionOf("style", PAGING_STYLES);
export type Paging = z.infer<typeof Paging>;
