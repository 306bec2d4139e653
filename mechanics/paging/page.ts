/**
 * @module paging/page
 * `?page=3&per_page=50`: numbered pages, counted from 0 or 1.
 */
import { z } from "zod";
import { definePaging, pagingCommon } from "./define.ts";

const schema = z.object({
  style: z.literal("page"),
  pageParam: z.string(),
  sizeParam: z.string(),
  /** Number of the first page: 0 or 1. */
  firstPage: z.union([z.literal(0), z.literal(1)]),
  ...pagingCommon,
});

export const pagePaging = definePaging({
  schema,
  params: (p) => ({ position: p.pageParam, size: p.sizeParam }),
  renameParam(p, from, to) {
    if (p.pageParam === from) p.pageParam = to;
    if (p.sizeParam === from) p.sizeParam = to;
  },
  readPosition(p, raw, limit) {
    if (raw === null || raw === "") return { ok: true, offset: 0 };
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < p.firstPage) return { ok: false, message: `${p.pageParam} must be an integer >= ${p.firstPage}` };
    return { ok: true, offset: (Number(raw) - p.firstPage) * limit };
  },
  nextPosition: (p, offset, limit) => String(Math.floor(offset / limit) + p.firstPage),
  nextBodyValue: (_p, position) => Number(position),
  isStart: (p, value) => Number(value) === p.firstPage,
  docs: {
    position: (p) => ({ name: p.pageParam, role: "position", description: `Page number; the first page is ${p.firstPage}.`, schema: { type: "integer", minimum: p.firstPage } }),
    howTo: (p) => `Pass \`${p.pageParam}\` (the first page is ${p.firstPage}) and \`${p.sizeParam}\` (records per page, default ${p.defaultLimit}, at most ${p.maxLimit}).`,
    nextNoun: "the next page number",
    nextType: "integer",
    exampleNext: (p) => p.firstPage + 1,
  },
});
