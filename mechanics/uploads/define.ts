/**
 * @module uploads/define
 * The shape of an upload style: how a write that carries a file is declared,
 * how the engine reads the file (with the create call, or later at a URL the
 * create call hands out), which record fields it fills, and how the docs say
 * so. One module per style; `uploads/index.ts` lists them.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

/** The most bytes the engine reads of any request body (the engine refuses larger ones before routing). */
export const READ_LIMIT_BYTES = 1024 * 1024;

/** Fields every upload style declares. */
export const uploadCommon = {
  /** Largest file accepted, in bytes (larger ones get 413 naming this cap); at most the 1 MiB any body may have. */
  maxBytes: z.number().int().positive().max(READ_LIMIT_BYTES),
  /** Media types a file may have. */
  accept: z.array(z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/)).min(1),
  /** Record fields the upload fills with what it received. */
  fields: z
    .object({
      /** The file's name, as the client gave it. */
      filename: z.string().default("filename"),
      /** The file's media type. */
      contentType: z.string().default("content_type"),
      /** Bytes received. */
      size: z.string().default("size"),
      /** SHA-256 (hex) of the bytes received. */
      sha256: z.string().default("sha256"),
    })
    .prefault({}),
};

/** What an upload's record fields are called. */
export type UploadFieldNames = { filename: string; contentType: string; size: string; sha256: string };

/** A file as it arrived. */
export interface ReceivedFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Why an upload is refused: the status, a code, and a message naming what was wrong (and the field, for 422s). */
export interface UploadRefusal {
  refused: true;
  status: 400 | 404 | 409 | 413 | 415 | 422;
  code: string;
  message: string;
  field?: string;
}

/** A request body as the engine received it. */
export interface ReceivedBody {
  /** The Content-Type header ("" when none). */
  contentType: string;
  /** The body's bytes, exactly as sent. */
  bytes: Uint8Array;
  /** The body parsed as a JSON object, or null. */
  json: Record<string, unknown> | null;
}

/** The parts of a declaration upload checks read (structural: declarations import this module). */
export interface UploadRefs {
  entity: { name: string; fields: { name: string; type: string }[] };
  write: { method: string; op: string; inputs: { name: string; type: string; required: boolean; oneOf?: string[] }[] };
}

/** Records a problem at `path`, relative to the write (`["upload", "part"]`, `["inputs", 0]`). */
export type IssueFn = (path: (string | number)[], message: string) => void;

/** An upload style: what it is declared as, how the engine reads the file, how the docs say so. */
export interface UploadStyle<S extends z.ZodObject = z.ZodObject, U = z.infer<S>> {
  /** Declaration schema, `style` a literal. */
  schema: S;
  /** Checks an upload against its write and entity. */
  check?(u: U, refs: UploadRefs, issue: IssueFn): void;
  /** Reads the create call: the inputs to validate and, when the file comes with the call, the file. */
  readCreate(u: U, body: ReceivedBody): { inputs: Record<string, unknown>; file: ReceivedFile | null } | UploadRefusal;
  /** Values the created record gets besides its inputs; `url` is the URL of the route `route` declares, for this record. */
  createdValues(u: U, made: { file: ReceivedFile | null; url: string | null }): Record<string, unknown>;
  /** A later request that carries the bytes, `:token` naming the upload. */
  route?(u: U): { method: "PUT" | "POST"; path: string };
  /** The bytes arrived at `route`: the record's new values, or a refusal. */
  receive?(u: U, record: Record<string, unknown>, body: ReceivedBody): Record<string, unknown> | UploadRefusal;
  docs: {
    /** Sentences for the write's section of the resource page. */
    describe(u: U): string[];
    /** The OpenAPI request body content of the create call, given the JSON Schema of its inputs. */
    requestContent(u: U, inputs: { properties: Record<string, unknown>; required: string[] }): Record<string, unknown>;
    /** Statuses (and what they mean) the create call may answer besides the usual ones. */
    statuses(u: U): Record<string, string>;
    /** Record fields the create call always fills (never null right after it). */
    filled(u: U): string[];
    /** The later request of `route`: what it says, the media types its body may have, and its statuses besides the usual ones. */
    route?(u: U): { summary: string; bodyTypes: string[]; statuses: Record<string, string> };
  };
}

export function defineUpload<S extends z.ZodObject>(style: UploadStyle<S>): UploadStyle<S> {
  return style;
}

export function styleOf(s: UploadStyle): string {
  return (s.schema.shape.style as z.ZodLiteral<string>).value;
}

/** A refusal (for styles to return). */
export function refuse(status: UploadRefusal["status"], code: string, message: string, field?: string): UploadRefusal {
  return { refused: true, status, code, message, ...(field ? { field } : {}) };
}

/** Whether a style's answer is a refusal. */
export function isRefusal(x: unknown): x is UploadRefusal {
  return typeof x === "object" && x !== null && (x as UploadRefusal).refused === true;
}

/** The media type of a Content-Type value, without parameters, lower-cased. */
export function mediaType(contentType: string): string {
  return contentType.split(";")[0].trim().toLowerCase();
}

/** Refuses a file over the cap or empty; null when its size is fine. */
export function sizeProblem(maxBytes: number, bytes: Uint8Array, field?: string): UploadRefusal | null {
  if (bytes.byteLength > maxBytes) return refuse(413, "file_too_large", `files are limited to ${maxBytes} bytes; this one has ${bytes.byteLength}`);
  if (bytes.byteLength === 0) return refuse(422, "validation_failed", "the file is empty", field);
  return null;
}

/** The record values that describe received bytes: their size and SHA-256, computed over exactly those bytes. */
export function digestValues(names: UploadFieldNames, bytes: Uint8Array): Record<string, unknown> {
  return { [names.size]: bytes.byteLength, [names.sha256]: createHash("sha256").update(bytes).digest("hex") };
}

/** Checks that the upload's fields exist on the entity. */
export function checkFields(names: UploadFieldNames, refs: UploadRefs, issue: IssueFn): void {
  for (const [key, name] of Object.entries(names)) if (!refs.entity.fields.some((f) => f.name === name)) issue(["upload", "fields", key], `"${refs.entity.name}" has no field "${name}"`);
}
