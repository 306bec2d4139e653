import { z } from "zod";

/** Where a list response tells the client about the next page. */
export const NextLink = z.enum([
  /** Nothing: the client computes the next offset or page itself. */
  "none",
  /** A JSON field of the envelope (`next` for offset/page, the cursor for cursors). */
  "body",
  /** An RFC 8288 `Link: <...>; rel="next"` header. */
  "link-header",
  /** A hypermedia `_links.next.href` in the envelope. */
  "hal",
]);

const Common = {
  /** Page size used when the client sends none. */
  defaultLimit: z.number().int().positive(),
  /** Largest page size served. */
  maxLimit: z.number().int().positive(),
  /** `clamp`: larger sizes are silently cut; `error`: they get a 400. */
  overMax: z.enum(["clamp", "error"]).default("clamp"),
  /** Whether the envelope carries the total count. */
  total: z.boolean().default(false),
  next: NextLink.default("none"),
};

export const OffsetPaging = z.object({
  style: z.literal("offset"),
  offsetParam: z.string(),
  limitParam: z.string(),
  ...Common,
});

export const PagePaging = z.object({
  style: z.literal("page"),
  pageParam: z.string(),
  sizeParam: z.string(),
  /** Number of the first page: 0 or 1. */
  firstPage: z.union([z.literal(0), z.literal(1)]),
  ...Common,
});

export const CursorPaging = z.object({
  style: z.literal("cursor"),
  cursorParam: z.string(),
  limitParam: z.string(),
  /** A cursor expires after this many further requests to the vendor (none when absent). */
  ttlRequests: z.number().int().positive().optional(),
  ...Common,
});

export const Paging = z.discriminatedUnion("style", [OffsetPaging, PagePaging, CursorPaging]);
export type Paging = z.infer<typeof Paging>;
