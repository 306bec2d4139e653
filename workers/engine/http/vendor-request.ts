/** A request to a vendor, with the world prefix stripped. */
export interface VendorRequest {
  method: string;
  /** Path relative to the vendor root, e.g. `/svc/candidates`. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** Raw body text ("" when none). */
  rawBody: string;
  /** Parsed body: JSON object, form fields, or null when absent or unparseable. */
  body: Record<string, unknown> | null;
  /** Whether a non-empty body failed to parse. */
  bodyInvalid: boolean;
  /** This request's sequence number in the vendor's request log. */
  seq: number;
  /** Real time of arrival, ms. */
  nowMs: number;
}

export async function readVendorRequest(request: Request, path: string, seq: number, nowMs: number): Promise<VendorRequest> {
  const url = new URL(request.url);
  const rawBody = request.method === "GET" || request.method === "HEAD" ? "" : new TextDecoder().decode(await request.arrayBuffer());
  const { body, invalid } = parseBody(rawBody, request.headers.get("content-type") ?? "");
  return { method: request.method.toUpperCase(), path, query: url.searchParams, headers: request.headers, rawBody, body, bodyInvalid: invalid, seq, nowMs };
}

function parseBody(raw: string, contentType: string): { body: Record<string, unknown> | null; invalid: boolean } {
  if (raw.trim() === "") return { body: null, invalid: false };
  if (contentType.includes("application/x-www-form-urlencoded")) {
    return { body: Object.fromEntries(new URLSearchParams(raw)), invalid: false };
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return { body: parsed as Record<string, unknown>, invalid: false };
    return { body: null, invalid: true };
  } catch {
    return { body: null, invalid: true };
  }
}
