/**
 * Which worlds the vendor surface lets through, at a time the caller gives:
 * a world is live until its expiry, whether remembered by the isolate or
 * looked up in the archive; an ended or unknown one is not.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../workers/env.ts";
import { forgetWorld, rememberWorld, worldExists } from "../../workers/surface/known-worlds.ts";
import { admin } from "./helpers.ts";

const farmEnv = env as unknown as Env;

describe("known worlds", () => {
  it("answers from the archive, live until the expiry it records, and not after", async () => {
    const made = await admin("POST", "/v1/worlds", { vendors: { ats: "hirewire" }, seed: 3, ttlSeconds: 600 });
    expect(made.status).toBe(201);
    const id = made.body.world as string;
    const expiresAt = Date.parse(made.body.expiresAt);
    forgetWorld(id);
    expect(await worldExists(farmEnv, id, expiresAt - 1)).toBe(true);
    // Remembered now, with the archive's expiry.
    expect(await worldExists(farmEnv, id, expiresAt)).toBe(false);
    forgetWorld(id);
    expect(await worldExists(farmEnv, id, expiresAt)).toBe(false);
    expect(await worldExists(farmEnv, id, expiresAt - 1)).toBe(true);
  });

  it("forgets a remembered world once its expiry has passed, and then asks the archive", async () => {
    const id = "r1-v-s1-00000000000000aa";
    rememberWorld(id, 1_000);
    expect(await worldExists(farmEnv, id, 999)).toBe(true);
    expect(await worldExists(farmEnv, id, 1_000)).toBe(false);
    // Forgotten: the archive has never heard of it, at any time.
    expect(await worldExists(farmEnv, id, 0)).toBe(false);
  });

  it("refuses a world that was deleted, though its expiry is still ahead", async () => {
    const made = await admin("POST", "/v1/worlds", { vendors: { ats: "hirewire" }, seed: 4, ttlSeconds: 600 });
    const id = made.body.world as string;
    const before = Date.parse(made.body.expiresAt) - 1;
    expect(await worldExists(farmEnv, id, before)).toBe(true);
    expect((await admin("DELETE", `/v1/worlds/${id}`)).status).toBe(200);
    expect(await worldExists(farmEnv, id, before)).toBe(false);
  });
});
