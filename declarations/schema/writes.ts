import { z } from "zod";
import { Accepted } from "./accepted.ts";
import { Upload } from "./uploads.ts";

/** One input field of a write. */
export const WriteInput = z.object({
  name: z.string(),
  type: z.enum(["string", "integer", "number", "boolean"]),
  description: z.string().min(1),
  required: z.boolean().default(false),
  /** The value must be the id of a live record of this entity. */
  ref: z.string().optional(),
  /** The value must be one of these. */
  oneOf: z.array(z.string()).optional(),
  /** Longest accepted string. */
  maxLength: z.number().int().positive().optional(),
});
export type WriteInput = z.infer<typeof WriteInput>;

/** How a write is made idempotent. */
export const Idempotency = z.discriminatedUnion("in", [
  z.object({
    in: z.literal("header"),
    name: z.string(),
    /** Replays within this many seconds get the stored response. */
    windowS: z.number().int().positive(),
  }),
  z.object({
    in: z.literal("body"),
    field: z.string(),
    /** Replays within this many later writes get the stored response. */
    windowWrites: z.number().int().positive(),
  }),
]);

/** How validation failures and other write errors are reported. */
export const WriteErrorStyle = z.enum([
  /** HTTP 422 with the vendor's error body plus per-field errors. */
  "http-422",
  /** HTTP 200 with a body that says the call failed (RPC style). */
  "rpc-200",
]);

/** One write endpoint. */
export const Write = z.object({
  /** Operation name, used by docs and logs (`createNote`). */
  name: z.string(),
  method: z.enum(["POST", "PUT", "PATCH"]),
  /**
   * Path; `:id` is the target record, `:parentId` the parent of a created
   * subresource. None when the write is reached only through a gateway operation.
   */
  path: z.string().startsWith("/").optional(),
  entity: z.string(),
  /** `bulk-create` takes an array of items and answers 207 with one result per item. */
  op: z.enum(["create", "update", "bulk-create"]),
  /** Body field holding the items of a bulk create. */
  itemsField: z.string().default("items"),
  /** Most items one bulk call accepts (more gets a 413). */
  maxItems: z.number().int().positive().default(100),
  /** For creates: body field (or `:parentId`) naming the parent record. */
  parentFrom: z.string().optional(),
  inputs: z.array(WriteInput).min(1),
  errors: WriteErrorStyle,
  idempotency: Idempotency.optional(),
  /** Updates require `If-Match` with the record's current ETag. */
  ifMatch: z.boolean().default(false),
  /** New or changed records show in lists only after this many further requests. */
  listLagRequests: z.number().int().nonnegative().default(0),
  /** 200 or 201 for a successful create. */
  successStatus: z.union([z.literal(200), z.literal(201)]).default(201),
  /** The write answers 202 and is applied only later, announced by a webhook (see `Accepted`). */
  accepted: Accepted.optional(),
  /** The write carries a file, with the call or at a URL it hands out (see `Upload`). */
  upload: Upload.optional(),
  description: z.string().min(1),
});
export type Write = z.infer<typeof Write>;
