/**
 * @module kit/multipart
 * Reads a `multipart/form-data` body (RFC 7578) from its bytes. A client
 * chooses the body freely, so the reader is bounded (parts, header sizes),
 * never throws and works on bytes: a file part's content is handed back
 * exactly as sent, whatever it holds.
 */

/** One part of a form: its name, and for a file its filename and media type. */
export interface FormPart {
  /** The `name` of its Content-Disposition. */
  name: string;
  /** The `filename` (or `filename*`) of its Content-Disposition; null for a plain field. */
  filename: string | null;
  /** Its Content-Type header, as sent (null when it sent none). */
  contentType: string | null;
  /** Its content, exactly the bytes sent. */
  bytes: Uint8Array;
}

/** The most parts a form may have. */
export const MAX_PARTS = 64;
/** The most header bytes one part may have. */
const MAX_HEADER_BYTES = 8192;

/** The `boundary` parameter of a multipart media type, or null when there is none. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=("([^"]{1,70})"|[^;\s]{1,70})/i.exec(contentType);
  if (!m) return null;
  return m[2] ?? m[1];
}

/** Whether a media type is `multipart/form-data` (parameters aside). */
export function isFormData(contentType: string): boolean {
  return contentType.split(";")[0].trim().toLowerCase() === "multipart/form-data";
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** Parameters of a header value (`form-data; name="file"; filename="cv.pdf"`), names lower-cased. */
function headerParams(value: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /;\s*([A-Za-z0-9*_-]+)\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]*)/g;
  for (let m = re.exec(value); m; m = re.exec(value)) {
    const name = m[1].toLowerCase();
    const raw = m[3] !== undefined ? m[3].replace(/\\(.)/g, "$1") : m[2].trim();
    if (!out.has(name)) out.set(name, raw);
  }
  return out;
}

/** A `filename*` value (RFC 5987: `UTF-8''name%20here`), or null when it cannot be read. */
function extendedValue(raw: string): string | null {
  const m = /^utf-8'[^']*'(.*)$/i.exec(raw);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return null;
  }
}

/**
 * The parts of a form body, or what is wrong with it. `bytes` is the whole
 * body; `boundary` comes from its Content-Type.
 */
export function parseMultipart(bytes: Uint8Array, boundary: string): { parts: FormPart[] } | { error: string } {
  // One character per byte, so indexes into the text are indexes into the bytes.
  const text = latin1(bytes);
  const delimiter = `--${boundary}`;
  const first = text.startsWith(delimiter) ? -2 : text.indexOf(`\r\n${delimiter}`);
  if (first === -1) return { error: `the body holds no boundary "${boundary}"` };
  let at = first + 2;
  const parts: FormPart[] = [];
  const decoder = new TextDecoder("utf-8");
  for (;;) {
    at += delimiter.length;
    if (text.startsWith("--", at)) return { parts };
    if (!text.startsWith("\r\n", at)) return { error: "a boundary line is not followed by CRLF" };
    at += 2;
    if (parts.length === MAX_PARTS) return { error: `a form may have at most ${MAX_PARTS} parts` };
    const headerEnd = text.indexOf("\r\n\r\n", at);
    const blankFirst = text.startsWith("\r\n", at);
    if (!blankFirst && (headerEnd < 0 || headerEnd - at > MAX_HEADER_BYTES)) return { error: "a part's headers do not end with a blank line" };
    const headerText = blankFirst ? "" : decoder.decode(bytes.subarray(at, headerEnd));
    const contentStart = blankFirst ? at + 2 : headerEnd + 4;
    const next = text.indexOf(`\r\n${delimiter}`, contentStart);
    if (next < 0) return { error: "the body ends before its closing boundary" };
    const headers = new Map<string, string>();
    for (const line of headerText.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get("content-disposition") ?? "";
    if (!/^form-data\s*(;|$)/i.test(disposition)) return { error: "every part needs a Content-Disposition of form-data" };
    const params = headerParams(disposition);
    const name = params.get("name");
    if (name === undefined) return { error: "a part's Content-Disposition has no name" };
    const extended = params.has("filename*") ? extendedValue(params.get("filename*")!) : null;
    parts.push({ name, filename: extended ?? params.get("filename") ?? null, contentType: headers.get("content-type") ?? null, bytes: bytes.subarray(contentStart, next) });
    at = next + 2;
  }
}
