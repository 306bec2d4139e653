/**
 * @module reply
 * What a handler answers, and errors in a vendor's own error shape. Shared by
 * the engine and the mechanics.
 */

/** The parts of a vendor's error shape an error body needs. */
export interface ErrorShapeOf {
  errors: { wrap?: string; codeField: string; messageField: string; rpcOkField: string };
}

/** What a handler answers, before the engine adds common headers and logs it. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** JSON-serialisable body, or null for none. */
  body: unknown;
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, body, headers };
}

/** A body sent as the text it is (XML, CSV), not serialised as JSON. */
export class TextBody {
  readonly text: string;

  constructor(text: string) {
    this.text = text;
  }
}

/** A text reply with its media type. */
export function text(status: number, body: string, contentType: string, headers: Record<string, string> = {}): Reply {
  return { status, body: new TextBody(body), headers: { ...headers, "content-type": contentType } };
}

/** An error in the vendor's own error shape. */
export function vendorError(vendor: ErrorShapeOf, status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Reply {
  const e = vendor.errors;
  const inner: Record<string, unknown> = { [e.codeField]: code, [e.messageField]: message, ...extra };
  return json(status, e.wrap ? { [e.wrap]: inner } : inner, headers);
}

/** An RPC-style failure: HTTP 200 whose body says the call failed. */
export function rpcFailure(vendor: ErrorShapeOf, code: string, message: string, extra: Record<string, unknown> = {}): Reply {
  const e = vendor.errors;
  return json(200, { [e.rpcOkField]: false, [e.codeField]: code, [e.messageField]: message, ...extra });
}
