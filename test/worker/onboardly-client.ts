import { expect } from "vitest";
import { got, type Got } from "./clients.ts";
import { farm, type RoleInfo, rel } from "./helpers.ts";

/** A call to a vendor as a test makes it. */
export type Call = (path: string, init?: RequestInit & { headers?: Record<string, string> }) => Promise<Got>;

/** Onboardly: the console login's session cookie, and its CSRF token on writes. */
export async function onboardlyClient(info: RoleInfo): Promise<Call> {
  const base = rel(info.baseUrl);
  const login = await farm(`${base}/api/v1/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: info.credentials.username, password: info.credentials.password }),
  });
  expect(login.status).toBe(200);
  const cookie = /obly_session=([^;,\s]+)/.exec(login.headers.get("set-cookie") ?? "")![1];
  const csrf = ((await login.json()) as { csrf_token: string }).csrf_token;
  return async (path, init = {}) => got(await farm(base + path, { ...init, headers: { cookie: `obly_session=${cookie}`, "x-csrf-token": csrf, "content-type": "application/json", ...init.headers } }));
}
