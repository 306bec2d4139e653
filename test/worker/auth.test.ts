import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { got, hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, createWorld, farm, rel } from "./helpers.ts";

async function lastRequest(world: string, role: string) {
  const log = await admin("GET", `/v1/worlds/${world}/roles/${role}/requests`);
  return log.body.records.at(-1);
}

describe("static API key (hirewire)", () => {
  it("accepts the world's key and records ok", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const res = await hirewireClient(w.vendors.ats)("/v1/candidates");
    expect(res.status).toBe(200);
    expect((await lastRequest(w.world, "ats")).authOutcome).toBe("ok");
  });

  it("answers 401 missing / invalid in the vendor's error shape", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const base = rel(w.vendors.ats.baseUrl);
    const missing = await got(await farm(`${base}/v1/candidates`));
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: "unauthorized" });
    expect((await lastRequest(w.world, "ats")).authOutcome).toBe("missing");
    const wrong = await got(await farm(`${base}/v1/candidates`, { headers: { "x-api-key": "hw_live_nope" } }));
    expect(wrong.status).toBe(401);
    expect((await lastRequest(w.world, "ats")).authOutcome).toBe("invalid");
  });

  it("rejects a key of world A in world B", async () => {
    const a = await createWorld({ ats: "hirewire" }, 9);
    const b = await createWorld({ ats: "hirewire" }, 9);
    const res = await got(await farm(`${rel(b.vendors.ats.baseUrl)}/v1/candidates`, { headers: { "x-api-key": a.vendors.ats.credentials.api_key } }));
    expect(res.status).toBe(401);
  });

  it("redacts the key in the logged headers but keeps it in a logged query string", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const key = w.vendors.ats.credentials.api_key;
    await hirewireClient(w.vendors.ats)(`/v1/candidates?api_key=${key}`);
    const row = await lastRequest(w.world, "ats");
    expect(row.headers["x-api-key"]).toBe("[redacted]");
    expect(JSON.stringify(row.headers)).not.toContain(key);
    expect(row.query.api_key).toBe(key);
  });
});

describe("HMAC request signing with a lagging vendor clock (staffline)", () => {
  it("accepts a request signed with a timestamp on the vendor clock", async () => {
    const w = await createWorld({ ats: "staffline" });
    const res = await stafflineClient(w.vendors.ats)("/svc/candidates?count=5&start=0");
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(5);
  });

  it("rejects the host clock, which is 120 s ahead of the vendor's", async () => {
    const w = await createWorld({ ats: "staffline" });
    const res = await stafflineClient(w.vendors.ats, { clockOffsetS: 0 })("/svc/candidates");
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe("timestamp_out_of_window");
  });

  it("reports the vendor wall clock in the Date header, 120 s behind", async () => {
    const w = await createWorld({ ats: "staffline" });
    const res = await stafflineClient(w.vendors.ats)("/svc/jobs");
    const skew = Date.parse(res.headers.get("date")!) / 1000 - Date.now() / 1000;
    expect(skew).toBeGreaterThan(-125);
    expect(skew).toBeLessThan(-115);
  });

  it("rejects a wrong secret, and a signature over other parameters", async () => {
    const w = await createWorld({ ats: "staffline" });
    expect((await stafflineClient(w.vendors.ats, { secret: "slhs_wrong" })("/svc/candidates")).status).toBe(401);
    const base = rel(w.vendors.ats.baseUrl);
    const signed = stafflineClient(w.vendors.ats);
    const ok = await signed("/svc/candidates?start=0");
    expect(ok.status).toBe(200);
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(log.body.records.at(-1).headers["x-sl-signature"]).toBe("[redacted]");
    const missing = await got(await farm(`${base}/svc/candidates`, { headers: { "x-sl-app-token": w.vendors.ats.credentials.app_token } }));
    expect(missing.status).toBe(401);
    expect(missing.body.error_code).toBe("signature_missing");
  });
});

describe("OAuth client credentials then session exchange (talentforge)", () => {
  it("mints tokens, logs them, and serves data with the session token", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    expect((await tf("/rest/candidates")).status).toBe(200);
    const tokens = await admin("GET", `/v1/worlds/${w.world}/roles/ats/tokens`);
    expect(tokens.body.records.map((t: any) => [t.kind, t.route, t.expiresIn])).toEqual([
      ["access_token", "client_credentials", 600],
      ["session_token", "session_exchange", 900],
    ]);
  });

  it("refuses the access token where the session token is required", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const res = await tf("/rest/candidates", { headers: { "x-tf-session": tf.accessToken } });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("invalid_token");
  });

  it("rejects a wrong client secret and a missing grant type", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const base = rel(w.vendors.ats.baseUrl);
    const bad = await got(
      await farm(`${base}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials", client_id: w.vendors.ats.credentials.client_id, client_secret: "tfcs_wrong" }),
      }),
    );
    expect(bad.status).toBe(401);
    expect(bad.body.error).toBe("invalid_client");
    const noGrant = await got(await farm(`${base}/oauth/token`, { method: "POST", body: "{}" }));
    expect(noGrant.status).toBe(400);
    expect(noGrant.body.error).toBe("unsupported_grant_type");
  });

  it("reports an expired session as expired", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const tf = await talentforgeClient(w.vendors.ats);
    const stub = env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`));
    await runInDurableObject(stub, (_obj, state) => {
      state.storage.sql.exec("UPDATE issued SET expires_ms = 1 WHERE value = ?", tf.sessionToken);
    });
    const res = await tf("/rest/candidates");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("token_expired");
    expect((await lastRequest(w.world, "ats")).authOutcome).toBe("expired");
  });
});

describe("refresh tokens (talentforge: single-use, absolute expiry)", () => {
  async function mint(base: string, body: Record<string, string>) {
    return got(await farm(`${base}/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body).toString() }));
  }

  it("exchanges a refresh token once, and refuses it the second time", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const base = rel(w.vendors.ats.baseUrl);
    const { client_id, client_secret } = w.vendors.ats.credentials;
    const first = await mint(base, { grant_type: "client_credentials", client_id, client_secret });
    expect(first.body.refresh_token).toMatch(/^rt_/);
    const refreshed = await mint(base, { grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(first.body.access_token);
    const replay = await mint(base, { grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    expect(replay.status).toBe(400);
    expect(replay.body.error_description).toMatch(/already used/);
    const tokens = await admin("GET", `/v1/worlds/${w.world}/roles/ats/tokens`);
    expect(tokens.body.records.map((t: any) => t.route)).toEqual(["client_credentials", "refresh_token"]);
  });

  it("does not extend the family's lifetime on refresh (absolute expiry)", async () => {
    const w = await createWorld({ ats: "talentforge" });
    const base = rel(w.vendors.ats.baseUrl);
    const { client_id, client_secret } = w.vendors.ats.credentials;
    const first = await mint(base, { grant_type: "client_credentials", client_id, client_secret });
    const second = await mint(base, { grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    const stub = env.WORLD.get(env.WORLD.idFromName(`${w.world}/ats`));
    const rows = await runInDurableObject(stub, (_obj, state) =>
      state.storage.sql.exec("SELECT value, expires_ms, family_expires_ms FROM issued WHERE kind = 'refresh' ORDER BY expires_ms").toArray(),
    );
    const byValue = Object.fromEntries(rows.map((r) => [r.value, r]));
    expect(byValue[second.body.refresh_token].family_expires_ms).toBe(byValue[first.body.refresh_token].family_expires_ms);
    expect(byValue[second.body.refresh_token].expires_ms as number).toBeLessThanOrEqual(byValue[first.body.refresh_token].family_expires_ms as number);
  });
});
