/**
 * Where the farm may deliver a participant's webhooks: never to itself or a
 * private network (refused with 400 naming why), unless the world delivers
 * through the relay, which the farm never fetches. The operator registers
 * loopback targets (the local harness does).
 */
import { describe, expect, it } from "vitest";
import { admin, as, participant } from "./helpers.ts";

const LOCAL = [
  "http://127.0.0.1:8080/hooks",
  "http://127.1/hooks",
  "http://0x7f.0.0.1/hooks",
  "http://0177.0.0.1/hooks",
  "http://2130706433/hooks",
  "http://127.0.0.1./hooks",
  "http://0.0.0.0:9/hooks",
  "http://0/hooks",
  "http://localhost:3000/hooks",
  "http://LOCALHOST./hooks",
  "http://hooks.localhost/x",
  "http://[::1]/hooks",
  "http://[::]/hooks",
  "http://[::ffff:127.0.0.1]/hooks",
  "http://[::ffff:10.1.2.3]/hooks",
  "http://[0:0:0:0:0:ffff:7f00:1]/hooks",
  "http://[64:ff9b::a9fe:a9fe]/hooks",
  "http://[fe80::1]/hooks",
  "http://[fd00::5]/hooks",
  "http://10.0.0.1/hooks",
  "http://172.16.5.4/hooks",
  "http://172.31.255.255/hooks",
  "http://192.168.1.1/hooks",
  "http://169.254.169.254/latest/meta-data",
  "http://100.64.0.1/hooks",
];
const PUBLIC = [
  "https://hooks.example.com/x",
  "http://8.8.8.8/hooks",
  "http://172.32.0.1/hooks",
  "http://[2606:4700::1111]/hooks",
  "http://[::ffff:8.8.8.8]/hooks",
  "http://127.0.0.1.example.com/hooks",
];

describe("a participant's webhook targets", () => {
  it("on loopback, private or link-local addresses, in any spelling, are refused with 400 naming why", async () => {
    const p = await participant("lab-targets-refused", { worldsPerDay: 100, liveWorlds: 10 });
    for (const url of LOCAL) {
      const res = await as(p.key, "POST", "/v1/worlds", { task: "task-0004", webhookTargets: { ats: url } });
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toMatch(/^webhookTargets\.ats: webhook target .* is (an?|the) .*(loopback|private|link-local|unspecified|shared|localhost|unique local|IPv4)/);
      expect(res.body.error, url).toMatch(/relay: true/);
    }
  });

  it("on public addresses and names are taken; so is any target the relay delivers", async () => {
    const p = await participant("lab-targets-public", { worldsPerDay: 100, liveWorlds: 10 });
    for (const url of PUBLIC) {
      const res = await as(p.key, "POST", "/v1/worlds", { task: "task-0004", webhookTargets: { ats: url }, ttlSeconds: 60 });
      expect(res.status, url).toBe(201);
      expect((await as(p.key, "DELETE", `/v1/worlds/${res.body.world}`)).status).toBe(200);
    }
    const relayed = await as(p.key, "POST", "/v1/worlds", { task: "task-0004", webhookTargets: { ats: "http://127.0.0.1:4000/hooks" }, relay: true });
    expect(relayed.status).toBe(201);
  });

  it("set later through webhook-target are held to the same rule", async () => {
    const p = await participant("lab-targets-later", { worldsPerDay: 100, liveWorlds: 10 });
    const w = (await as(p.key, "POST", "/v1/worlds", { task: "task-0004" })).body.world as string;
    const path = `/v1/worlds/${w}/roles/ats/webhook-target`;
    const refused = await as(p.key, "POST", path, { url: "http://[::ffff:127.0.0.1]:8787/v1/participants", relay: false });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/IPv4-mapped form of a loopback address/);
    expect((await as(p.key, "POST", path, { url: "https://hooks.example.com/x", relay: false })).status).toBe(200);
    expect((await as(p.key, "POST", path, { url: "http://127.0.0.1:4000/hooks", relay: true })).status).toBe(200);
    expect((await as(p.key, "POST", path, { url: null, relay: false })).status).toBe(200);
  });

  it("of the operator may be on loopback (the local harness listens there)", async () => {
    const res = await admin("POST", "/v1/worlds", { task: "task-0004", webhookTargets: { ats: "http://127.0.0.1:4000/hooks" } });
    expect(res.status).toBe(201);
    expect((await admin("POST", `/v1/worlds/${res.body.world}/roles/ats/webhook-target`, { url: "http://localhost:4000/hooks" })).status).toBe(200);
  });
});
