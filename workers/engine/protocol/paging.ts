import type { Paging } from "../../../declarations/schema/pagination.ts";
import { hashKey } from "../data/prng.ts";

/** A validated page request: where to start and how many. */
export interface PageRequest {
  offset: number;
  limit: number;
}

export type PageParse = { ok: true; page: PageRequest } | { ok: false; param: string; message: string; invalidated?: boolean };

function readInt(query: URLSearchParams, name: string): number | null | "bad" {
  const raw = query.get(name);
  if (raw === null || raw === "") return null;
  if (!/^\d{1,9}$/.test(raw)) return "bad";
  return Number(raw);
}

/** Context that binds cursors to one list query of one epoch. */
export interface CursorScope {
  seed: number;
  epoch: number;
  listKey: string;
  /** Sequence number of the request being served. */
  requestSeq: number;
  /** Cursors issued before this request number are refused (a fault); 0 for none. */
  cutoff?: number;
}

function cursorSig(scope: CursorScope, position: number, issuedAt: number): string {
  return hashKey([scope.seed, scope.epoch, scope.listKey, position, issuedAt]).toString(36);
}

/** Opaque, deterministic cursor: position, issuing request and a check value. */
export function encodeCursor(scope: CursorScope, position: number): string {
  const raw = `${position}.${scope.requestSeq}.${cursorSig(scope, position, scope.requestSeq)}`;
  return btoa(raw).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
}

export function decodeCursor(scope: CursorScope, cursor: string, ttlRequests: number | undefined): { ok: true; position: number } | { ok: false; message: string; invalidated?: boolean } {
  let raw: string;
  try {
    raw = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return { ok: false, message: "cursor is not valid" };
  }
  const m = /^(\d+)\.(\d+)\.([0-9a-z]+)$/.exec(raw);
  if (!m || cursorSig(scope, Number(m[1]), Number(m[2])) !== m[3]) return { ok: false, message: "cursor is not valid for this query" };
  if (ttlRequests !== undefined && scope.requestSeq - Number(m[2]) > ttlRequests) return { ok: false, message: "cursor has expired" };
  if (scope.cutoff && Number(m[2]) < scope.cutoff) return { ok: false, message: "cursor has expired", invalidated: true };
  return { ok: true, position: Number(m[1]) };
}

/** Reads the paging parameters of a list request. */
export function parsePage(p: Paging, query: URLSearchParams, scope: CursorScope): PageParse {
  const sizeParam = p.style === "page" ? p.sizeParam : p.limitParam;
  const size = readInt(query, sizeParam);
  if (size === "bad" || size === 0) return { ok: false, param: sizeParam, message: `${sizeParam} must be a positive integer` };
  let limit = size ?? p.defaultLimit;
  if (limit > p.maxLimit) {
    if (p.overMax === "error") return { ok: false, param: sizeParam, message: `${sizeParam} must be at most ${p.maxLimit}` };
    limit = p.maxLimit;
  }
  switch (p.style) {
    case "offset": {
      const offset = readInt(query, p.offsetParam);
      if (offset === "bad") return { ok: false, param: p.offsetParam, message: `${p.offsetParam} must be a non-negative integer` };
      return { ok: true, page: { offset: offset ?? 0, limit } };
    }
    case "page": {
      const page = readInt(query, p.pageParam);
      if (page === "bad" || (page !== null && page < p.firstPage)) return { ok: false, param: p.pageParam, message: `${p.pageParam} must be an integer >= ${p.firstPage}` };
      return { ok: true, page: { offset: ((page ?? p.firstPage) - p.firstPage) * limit, limit } };
    }
    case "cursor": {
      const cursor = query.get(p.cursorParam);
      if (cursor === null || cursor === "") return { ok: true, page: { offset: 0, limit } };
      const decoded = decodeCursor(scope, cursor, p.ttlRequests);
      if (!decoded.ok) return { ok: false, param: p.cursorParam, message: decoded.message, invalidated: decoded.invalidated };
      return { ok: true, page: { offset: decoded.position, limit } };
    }
  }
}

/** The query parameters that fetch the page after this one, or null on the last page. */
export function nextPageParams(p: Paging, page: PageRequest, served: number, total: number, scope: CursorScope): Record<string, string> | null {
  const nextOffset = page.offset + served;
  if (served === 0 || nextOffset >= total) return null;
  switch (p.style) {
    case "offset":
      return { [p.offsetParam]: String(nextOffset), [p.limitParam]: String(page.limit) };
    case "page":
      return { [p.pageParam]: String(Math.floor(nextOffset / page.limit) + p.firstPage), [p.sizeParam]: String(page.limit) };
    case "cursor":
      return { [p.cursorParam]: encodeCursor(scope, nextOffset), [p.limitParam]: String(page.limit) };
  }
}
