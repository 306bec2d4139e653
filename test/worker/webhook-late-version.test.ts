import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin } from "./helpers.ts";

type Out = { id: string; eventId: string; body: string };

/** PlaceMint (full payloads) through the relay outbox: what one recreate to checkpoint 3 sends, in order. */
async function delivered(faults: string[], seed = 3): Promise<{ type: string; id: string; created_at: string; data: Record<string, unknown> }[]> {
  const res = await admin("POST", "/v1/worlds", { vendors: { ats: "placemint" }, seed, checkpoint: 2, webhookTargets: { ats: "http://receiver.test/hooks/pm" }, relay: true });
  expect(res.status).toBe(201);
  const w = res.body.world as string;
  await admin("POST", `/v1/worlds/${w}/roles/ats/recreate`, { checkpoint: 3, faults });
  await runDurableObjectAlarm(env.WORLD.get(env.WORLD.idFromName(`${w}/ats`)));
  const out = (await admin("GET", `/v1/worlds/${w}/roles/ats/outbox`)).body.deliveries as Out[];
  return out.map((d) => JSON.parse(d.body));
}

describe("webhook-late-version: an older version of a record delivered after the newer one", () => {
  it("sends the previous version of the first placement update as an event of its own, after the whole batch", async () => {
    const clean = await delivered([]);
    const late = await delivered(["pm-webhook-late-version"]);
    expect(late).toHaveLength(clean.length + 1);
    const first = clean.find((e) => e.type === "placement.updated")!;
    const older = late.at(-1)!;
    expect(older.type).toBe("placement.updated");
    expect(older.data.id).toBe(first.data.id);
    expect(String(older.data.updated_at) < String(first.data.updated_at)).toBe(true);
    expect(older.created_at < first.created_at).toBe(true);
    // Its own event id; the newer version went out before it, unchanged.
    expect(late.filter((e) => e.id === older.id)).toHaveLength(1);
    const newer = late.findIndex((e) => e.type === "placement.updated" && e.data.id === first.data.id);
    expect(late[newer]).toEqual(first);
    expect(newer).toBeLessThan(late.length - 1);
  });

  it("counts as no new event: a drop of the third placement update still drops the same one", async () => {
    const what = (e: { type: string; data: Record<string, unknown> }) => `${e.type} ${e.data.id} ${e.data.updated_at ?? ""}`;
    const clean = (await delivered([])).map(what);
    const dropped = (await delivered(["pm-webhook-drop-placement"])).map(what);
    const both = (await delivered(["pm-webhook-drop-placement", "pm-webhook-late-version"])).slice(0, -1).map(what);
    expect(dropped).toHaveLength(clean.length - 1);
    expect(both).toEqual(dropped);
  });
});
