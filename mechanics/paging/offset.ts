/**
 * @module paging/offset
 * `?offset=100&limit=50`: the client names the index of the first record.
 */
import { z } from "zod";
import { definePaging, pagingCommon } from "./define.ts";

const schema = z.object({ style: z.literal("offset"), offsetParam: z.string(), limitParam: z.string(), ...pagingCommon });

export const offsetPaging = definePaging({
  schema,
  params: (p) => ({ position: p.offsetParam, size: p.limitParam }),
  renameParam(p, from, to) {
    if (p.offsetParam === from) p.offsetParam = to;
    if (p.limitParam === from) p.limitParam = to;
  },
  readPosition(p, raw) {
    if (raw === null || raw === "") return { ok: true, offset: 0 };
    if (!/^\d{1,9}$/.test(raw)) return { ok: false, message: `${p.offsetParam} must be a non-negative integer` };
    return { ok: true, offset: Number(raw) };
  },
  nextPosition: (_p, offset) => String(offset),
  nextBodyValue: (_p, position) => Number(position),
  isStart: (_p, value) => Number(value) === 0,
  docs: {
    position: (p) => ({ name: p.offsetParam, role: "position", description: "Zero-based index of the first record to return.", schema: { type: "integer", minimum: 0 } }),
    howTo: (p) => `Pass \`${p.offsetParam}\` (zero-based index of the first record) and \`${p.limitParam}\` (records per page, default ${p.defaultLimit}, at most ${p.maxLimit}).`,
    nextNoun: "the next offset",
    nextType: "integer",
    exampleNext: () => 2,
  },
});
