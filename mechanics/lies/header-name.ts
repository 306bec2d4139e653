/**
 * @module lies/header-name
 * The docs give an auth header another name.
 */
import { z } from "zod";
import { authScheme } from "../auth/index.ts";
import { defineLie, lieCommon } from "./define.ts";
import { authHeaders } from "./vendor-facts.ts";

const schema = z.object({ kind: z.literal("header-name"), ...lieCommon, header: z.string(), says: z.string() });

export const headerName = defineLie({
  schema,
  problem(v, lie) {
    const headers = authHeaders(v);
    if (!headers.includes(lie.header.toLowerCase())) return `"${lie.header}" is not an auth header of the vendor`;
    if (headers.includes(lie.says.toLowerCase())) return `"${lie.says}" is a real auth header`;
    return null;
  },
  tell(m, lie) {
    for (const p of m.present) authScheme(p).renameHeader(p as never, lie.header, lie.says);
  },
  areas: { openapi: /^components\.securitySchemes\./, pages: /^(authentication|index)$/ },
  touches: (_lie, f) => f.route !== null && f.route !== "mint",
});
