import { describe, expect, it } from "vitest";
import { admin, createWorld, farm, rel } from "./helpers.ts";

describe("connection-reset (hirewire, armed at recreate)", () => {
  it("sends the status and headers, then drops the connection mid-body on the second candidate list; logs it once; later reads are whole", async () => {
    const w = await createWorld({ ats: "hirewire" });
    const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["hw-candidates-reset"] });
    expect(re.status).toBe(200);
    const list = () => farm(`${rel(w.vendors.ats.baseUrl)}/v1/candidates?page=1&per_page=20`, { headers: { "x-api-key": w.vendors.ats.credentials.api_key } });

    const whole = await list();
    expect(whole.status).toBe(200);
    const full = await whole.text();
    expect(JSON.parse(full).data).toHaveLength(20);

    const cut = await list();
    expect(cut.status).toBe(200);
    expect(cut.headers.get("content-type")).toMatch(/json/);
    const reader = cut.body!.getReader();
    let received = 0;
    const failure = await (async () => {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return null;
        received += chunk.value.byteLength;
      }
    })().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(received).toBe(Math.floor(new TextEncoder().encode(full).byteLength / 2));

    const after = await list();
    expect(JSON.parse(await after.text()).data).toHaveLength(20);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`)).body.records as { status: number; faults: string[] }[];
    expect(log.map((r) => [r.status, r.faults])).toEqual([
      [200, []],
      [200, ["hw-candidates-reset"]],
      [200, []],
    ]);
  });

  it("never fires unarmed", async () => {
    const w = await createWorld({ ats: "hirewire" });
    for (let i = 0; i < 3; i++) {
      const res = await farm(`${rel(w.vendors.ats.baseUrl)}/v1/candidates`, { headers: { "x-api-key": w.vendors.ats.credentials.api_key } });
      expect(JSON.parse(await res.text()).data.length).toBeGreaterThan(0);
    }
  });
});
