import { createHash } from "node:crypto";
import type { VendorCall } from "../../world/vendor-rpc.ts";
import { type HeaderReader, RequestHeaders } from "../../../mechanics/kit/request-headers.ts";
import { decodeBody, jsonDepthExceeds, LOGGED_BODY_CHARS, MAX_JSON_DEPTH, truncateText } from "./request-body.ts";
import type { BodyNote } from "../../../evidence/logs.ts";
import { QueryParams, type QueryReader } from "../../../mechanics/kit/query-params.ts";

/** A request to a vendor, with the world prefix stripped. */
export interface VendorRequest {
  method: string;
  /** Path relative to the vendor root, e.g. `/svc/candidates`. */
  path: string;
  query: QueryReader;
  headers: HeaderReader;
  /** Body text as received, up to the body limit ("" when none). */
  rawBody: string;
  /** Body bytes exactly as received (empty when there was none, or it was over the limit). */
  bytes: Uint8Array;
  /** Parsed body: JSON object, form fields, or null when absent or unparseable. */
  body: Record<string, unknown> | null;
  /** Whether a non-empty body failed to parse (or nests too deep to be parsed). */
  bodyInvalid: boolean;
  /** Whether the body is over the limit (the vendor refuses it unread). */
  bodyTooLarge: boolean;
  /** The body as its log row keeps it. */
  logged: LoggedBody;
  /** This request's sequence number in the vendor's request log. */
  seq: number;
  /** Real time of arrival, ms. */
  nowMs: number;
}

/** A body as the request log keeps it: bounded, and saying how it differs from what was sent. */
export interface LoggedBody {
  /** Parsed JSON object or form fields, else text; null when there was no body. */
  body: unknown;
  /** Size as sent. */
  bytes: number;
  note: BodyNote | null;
  /** SHA-256 (hex) of the body as sent, whenever `body` is not all of it verbatim. */
  sha256: string | null;
}

/**
 * Turns a call into the request the engine serves. `secrets` gives the values
 * that leak checks look for: a body cut for the log names those it held.
 */
export async function readVendorRequest(call: VendorCall, seq: number, nowMs: number, secrets: () => readonly string[]): Promise<VendorRequest> {
  const headers = new RequestHeaders(call.headers);
  const base = { method: call.method, path: call.path, query: QueryParams.ofUrl(call.url), headers, seq, nowMs, bytes: call.head };
  if (call.head.byteLength === 0 && !call.rest) {
    return { ...base, rawBody: "", body: null, bodyInvalid: false, bodyTooLarge: false, logged: { body: null, bytes: 0, note: null, sha256: null } };
  }
  const { text, utf8 } = decodeBody(call.head);
  if (call.rest) {
    const rest = await drain(call.rest, call.head, secrets());
    const held = rest.secretsHeld.length ? ` …[holds ${rest.secretsHeld.join(" ")}]` : "";
    const logged: LoggedBody = { body: truncateText(text + held, LOGGED_BODY_CHARS, secrets()), bytes: rest.bytes, note: "truncated", sha256: rest.sha256 };
    return { ...base, bytes: new Uint8Array(0), rawBody: "", body: null, bodyInvalid: true, bodyTooLarge: true, logged };
  }
  const bytes = call.head.byteLength;
  const digest = () => createHash("sha256").update(call.head).digest("hex");
  if (!utf8) {
    return {
      ...base,
      rawBody: text,
      body: null,
      bodyInvalid: true,
      bodyTooLarge: false,
      logged: { body: truncateText(text, LOGGED_BODY_CHARS, secrets()), bytes, note: "not_utf8", sha256: digest() },
    };
  }
  const parsed = parseBody(text, headers.get("content-type") ?? "");
  const asText = (note: BodyNote | null): LoggedBody => {
    const kept = truncateText(text, LOGGED_BODY_CHARS, secrets());
    return kept === text ? { body: text, bytes, note, sha256: null } : { body: kept, bytes, note: note ?? "truncated", sha256: digest() };
  };
  let logged: LoggedBody;
  if (parsed.tooDeep) logged = asText("too_deep");
  else if (parsed.body && JSON.stringify(parsed.body).length <= LOGGED_BODY_CHARS) logged = { body: parsed.body, bytes, note: null, sha256: null };
  else logged = asText(null);
  return { ...base, rawBody: text, body: parsed.body, bodyInvalid: parsed.invalid, bodyTooLarge: false, logged };
}

function parseBody(raw: string, contentType: string): { body: Record<string, unknown> | null; invalid: boolean; tooDeep: boolean } {
  if (raw.trim() === "") return { body: null, invalid: false, tooDeep: false };
  if (contentType.includes("application/x-www-form-urlencoded")) {
    return { body: Object.fromEntries(new QueryParams(raw)), invalid: false, tooDeep: false };
  }
  if (jsonDepthExceeds(raw, MAX_JSON_DEPTH)) return { body: null, invalid: true, tooDeep: true };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return { body: parsed as Record<string, unknown>, invalid: false, tooDeep: false };
    return { body: null, invalid: true, tooDeep: false };
  } catch {
    return { body: null, invalid: true, tooDeep: false };
  }
}

/**
 * Reads the part of a body past the limit: its size, the digest of the whole
 * body, and which secrets it carries (searched across chunk boundaries).
 */
async function drain(rest: ReadableStream<Uint8Array>, head: Uint8Array, secrets: readonly string[]): Promise<{ bytes: number; sha256: string; secretsHeld: string[] }> {
  const hash = createHash("sha256").update(head);
  const wanted = secrets.filter((s) => s.length >= 8);
  const overlap = Math.max(0, ...wanted.map((s) => s.length)) - 1;
  const held = new Set<string>();
  let bytes = head.byteLength;
  let tail = overlap > 0 ? latin1(head.subarray(Math.max(0, head.byteLength - overlap))) : "";
  const reader = rest.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
    bytes += value.byteLength;
    if (!wanted.length) continue;
    const window = tail + latin1(value);
    for (const s of wanted) if (window.includes(s)) held.add(s);
    tail = overlap > 0 ? window.slice(-overlap) : "";
  }
  return { bytes, sha256: hash.digest("hex"), secretsHeld: [...held] };
}

function latin1(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}
