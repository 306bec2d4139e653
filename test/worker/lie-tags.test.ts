import { describe, expect, it } from "vitest";
import { hirewireClient, stafflineClient, talentforgeClient } from "./clients.ts";
import { admin, createWorld } from "./helpers.ts";

async function lastTags(world: string): Promise<string[]> {
  const log = await admin("GET", `/v1/worlds/${world}/roles/ats/requests`);
  return log.body.records.at(-1).lies;
}

describe("requests are tagged with the documentation lies they touch", () => {
  it("tags nothing in a world whose docs are true", async () => {
    const w = await createWorld({ ats: "hirewire" }, 1, 0, "true");
    await hirewireClient(w.vendors.ats)("/v1/candidates?page=1");
    expect(await lastTags(w.world)).toEqual([]);
  });

  it("hirewire: a page request touches the page-base and time-format lies; a single read only the time format", async () => {
    const w = await createWorld({ ats: "hirewire" }, 1, 0, "stale");
    const hw = hirewireClient(w.vendors.ats);
    await hw("/v1/candidates?page=1");
    expect(await lastTags(w.world)).toEqual(["hw-pages-from-zero", "hw-times-in-ms"]);
    await hw("/v1/candidates/1001");
    expect(await lastTags(w.world)).toEqual(["hw-times-in-ms"]);
  });

  it("staffline: application lists touch the omitted flag; every signed request touches the recipe", async () => {
    const w = await createWorld({ ats: "staffline" }, 1, 0, "stale");
    const sl = stafflineClient(w.vendors.ats);
    const res = await sl("/svc/applications?count=2");
    expect(res.headers.get("warning")).toMatch(/field stage omitted; send include_stage=true/);
    expect(await lastTags(w.world)).toEqual(["sl-include-stage-omitted", "sl-signature-order"]);
    await sl("/svc/candidates?include_deleted=true");
    expect(await lastTags(w.world)).toEqual(["sl-include-deleted-flag", "sl-signature-order"]);
  });

  it("talentforge: the token endpoint of the session touches the expiry lie; ignored parameters are named", async () => {
    const w = await createWorld({ ats: "talentforge" }, 1, 0, "stale");
    const tf = await talentforgeClient(w.vendors.ats);
    const tokens = await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`);
    expect(tokens.body.records.map((r: any) => r.lies)).toEqual([[], ["tf-session-sliding"]]);
    const res = await tf("/rest/candidates?updated_since=2024-03-01T00:00:00Z");
    expect(res.headers.get("warning")).toMatch(/ignored unknown query parameter: updated_since/);
    expect(await lastTags(w.world)).toEqual(["tf-updated-since"]);
  });
});
