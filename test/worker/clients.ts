import staffline from "../../declarations/vendors/staffline.ts";
import { signRequest } from "../../mechanics/kit/hmac.ts";
import { farm, rel, type RoleInfo } from "./helpers.ts";

/** A JSON response as a test reads it. */
export interface Got {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

async function got(res: Response): Promise<Got> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** HireWire: API key header. */
export function hirewireClient(info: RoleInfo) {
  return async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Got> =>
    got(await farm(rel(info.baseUrl) + path, { ...init, headers: { "x-api-key": info.credentials.api_key, ...init.headers } }));
}

/** StaffLine: app token plus an HMAC signature over the request, timestamped on the vendor's clock. */
export function stafflineClient(info: RoleInfo, opts: { clockOffsetS?: number; secret?: string } = {}) {
  const rule = staffline.auth.present.find((p) => p.kind === "hmac")!;
  if (rule.kind !== "hmac") throw new Error("staffline signs requests");
  return async (path: string, init: { method?: string; body?: string } = {}): Promise<Got> => {
    const url = new URL(info.baseUrl + path);
    const vendorPath = url.pathname.slice(new URL(info.baseUrl).pathname.length);
    const method = init.method ?? "GET";
    const timestamp = String(Math.floor(Date.now() / 1000) + (opts.clockOffsetS ?? staffline.clock.wireOffsetS));
    const signature = await signRequest({ method, path: vendorPath, query: url.searchParams, timestamp, rawBody: init.body ?? "" }, rule, opts.secret ?? info.credentials.hmac_secret);
    return got(
      await farm(rel(info.baseUrl) + path, {
        method,
        body: init.body,
        headers: { "x-sl-app-token": info.credentials.app_token, "x-sl-timestamp": timestamp, "x-sl-signature": signature, "content-type": "application/json" },
      }),
    );
  };
}

/** TalentForge: client credentials, then a session exchange; the session header on data calls. */
export async function talentforgeClient(info: RoleInfo) {
  const base = rel(info.baseUrl);
  const token = await got(
    await farm(`${base}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: info.credentials.client_id, client_secret: info.credentials.client_secret }).toString(),
    }),
  );
  if (token.status !== 200) throw new Error(`token mint failed: ${token.text}`);
  const session = await got(await farm(`${base}/rest/login`, { method: "POST", headers: { authorization: `Bearer ${token.body.access_token}` } }));
  if (session.status !== 200) throw new Error(`session exchange failed: ${session.text}`);
  const sessionToken: string = session.body.session_token;
  const call = async (path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Got> =>
    got(await farm(base + path, { ...init, headers: { "x-tf-session": sessionToken, "content-type": "application/json", ...init.headers } }));
  return Object.assign(call, { sessionToken, accessToken: token.body.access_token as string });
}

export { got };
