import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { TestClock } from "../../workers/engine/clock.ts";

export const ADMIN = "test-admin-token";
export const ORIGIN = "http://farm.test";

/** Calls the farm Worker as a client would. */
export function farm(path: string, init: RequestInit = {}): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(new Request(`${ORIGIN}${path}`, init));
}

/** Calls the control plane with the admin token. */
export async function admin<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await farm(path, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** Calls the control plane with any bearer token (a participant key, say). */
export async function as<T = any>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await farm(path, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T, headers: res.headers };
}

/** Mints a participant with the given quota and returns its key. */
export async function participant(name: string, quota: Record<string, number> = {}): Promise<{ participant: string; key: string }> {
  const res = await admin("POST", "/v1/participants", { name, quota });
  if (res.status !== 201) throw new Error(`participant minting failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Role details returned by world creation. */
export interface RoleInfo {
  vendor: string;
  baseUrl: string;
  docsUrl: string;
  credentials: Record<string, string>;
  env: Record<string, string>;
  stateHash: string;
}

export async function createWorld(vendors: Record<string, string>, seed = 1, checkpoint = 0, docsProfile = "true"): Promise<{ world: string; vendors: Record<string, RoleInfo> }> {
  const res = await admin("POST", "/v1/worlds", { vendors, seed, checkpoint, docsProfile });
  if (res.status !== 201) throw new Error(`world creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Path of a vendor URL relative to the farm origin. */
export function rel(url: string): string {
  return url.slice(ORIGIN.length);
}

/** A role's Durable Object. */
export function roleObject(world: string, role: string) {
  return env.WORLD.get(env.WORLD.idFromName(`${world}/${role}`));
}

/** A role's object's clock: a `TestClock`, which the test configuration binds (`WIREBENCH_TEST_CLOCK`). */
function testClock(o: { clock: unknown }): TestClock {
  if (!(o.clock instanceof TestClock)) throw new Error("the world object runs on the host's clock: WIREBENCH_TEST_CLOCK is not bound");
  return o.clock;
}

/** Moves a role's clock `ms` ahead, instead of sleeping. */
export function advanceClock(world: string, role: string, ms: number): Promise<void> {
  return runInDurableObject(roleObject(world, role), (o) => testClock(o).advance(ms));
}

/** How far a role's clock has been moved ahead (by `advanceClock` or a wait the engine took on it). */
export function clockOffset(world: string, role: string): Promise<number> {
  return runInDurableObject(roleObject(world, role), (o) => testClock(o).offsetMs);
}

/** Timeline events waiting on a role's alarm (the world's own expiry, always pending, not counted). */
export function pendingTimeline(world: string, role: string): Promise<number> {
  return runInDurableObject(roleObject(world, role), (_o, state) => state.storage.sql.exec("SELECT count(*) AS n FROM schedule WHERE done = 0 AND kind != 'world-expire'").one().n as number);
}
