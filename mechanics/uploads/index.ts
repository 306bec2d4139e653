/**
 * @module uploads
 * The registry of upload styles: the only list of them.
 */
import type { z } from "zod";
import { styleOf, type UploadStyle } from "./define.ts";
import { multipartUpload } from "./multipart.ts";
import { uploadUrl } from "./upload-url.ts";
import { unionOf } from "../kit/union.ts";

export const UPLOAD_STYLES = [multipartUpload, uploadUrl] as const;

const BY_STYLE = new Map<string, UploadStyle<z.ZodObject, unknown>>(UPLOAD_STYLES.map((s) => [styleOf(s as unknown as UploadStyle), s as unknown as UploadStyle<z.ZodObject, unknown>]));

/** The module of a declared upload's style. */
export function uploadStyle(u: { style: string }): UploadStyle<z.ZodObject, unknown> {
  const s = BY_STYLE.get(u.style);
  if (!s) throw new Error(`unknown upload style "${u.style}"`);
  return s;
}

/** The route a declared upload adds (the URL the bytes are sent to later), if its style has one. */
export function uploadRoute(u: { style: string }): { method: "PUT" | "POST"; path: string } | null {
  return uploadStyle(u).route?.(u) ?? null;
}

export { isRefusal, READ_LIMIT_BYTES, type ReceivedBody, type ReceivedFile, type UploadRefusal } from "./define.ts";

/** How a write receives a file: the union of every module's schema in this registry, by `style`. */
export const Upload = unionOf("style", UPLOAD_STYLES);
export type Upload = z.infer<typeof Upload>;
