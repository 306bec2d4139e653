/**
 * @module paging/cursor
 * `?cursor=<opaque>&limit=50`: opaque, deterministic cursors bound to one
 * list query of one epoch, optionally expiring after a number of requests.
 */
import { z } from "zod";
import { hashKey } from "../kit/hash-key.ts";
import { type CursorScope, definePaging, pagingCommon } from "./define.ts";

const schema = z.object({
  style: z.literal("cursor"),
  cursorParam: z.string(),
  limitParam: z.string(),
  /** A cursor expires after this many further requests to the vendor (none when absent). */
  ttlRequests: z.number().int().positive().optional(),
  ...pagingCommon,
});

function cursorSig(scope: CursorScope, position: number, issuedAt: number): string {
  return hashKey([scope.seed, scope.epoch, scope.listKey, position, issuedAt]).toString(36);
}

/** Position, issuing request and a check value, base64url without padding. */
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

export const cursorPaging = definePaging({
  schema,
  params: (p) => ({ position: p.cursorParam, size: p.limitParam }),
  renameParam(p, from, to) {
    if (p.cursorParam === from) p.cursorParam = to;
    if (p.limitParam === from) p.limitParam = to;
  },
  readPosition(p, raw, _limit, scope) {
    if (raw === null || raw === "") return { ok: true, offset: 0 };
    const decoded = decodeCursor(scope, raw, p.ttlRequests);
    return decoded.ok ? { ok: true, offset: decoded.position } : decoded;
  },
  nextPosition: (_p, offset, _limit, scope) => encodeCursor(scope, offset),
  nextBodyValue: (_p, position) => position,
  isStart: () => false,
  docs: {
    position: (p) => ({ name: p.cursorParam, role: "position", description: "Opaque cursor from the previous page; omit for the first page.", schema: { type: "string" } }),
    howTo: (p) =>
      `Pass \`${p.limitParam}\` (records per page, default ${p.defaultLimit}, at most ${p.maxLimit}); for later pages pass the \`${p.cursorParam}\` from the previous page. Cursors are opaque.${p.ttlRequests ? ` A cursor works for the ${p.ttlRequests} requests after the one that issued it (any request to the API counts) and then expires: use it right away.` : ""}`,
    nextNoun: "the cursor of the next page",
    nextType: "string",
    exampleNext: () => "Mi4xLjNrOWR6",
  },
});
