import { describe, expect, it } from "vitest";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { deletedReadStatus, deleteFlagField, deleteStyle } from "../../mechanics/deletes/index.ts";
import { pagingParams } from "../../mechanics/paging/index.ts";
import { got, type Got } from "./clients.ts";
import { admin, createWorld, farm, rel, type RoleInfo } from "./helpers.ts";

type Call = (path: string) => Promise<Got>;

/** CrewCall: `Authorization: Token <api key>`. */
function crewcallClient(info: RoleInfo): Call {
  return async (path) => got(await farm(rel(info.baseUrl) + path, { headers: { authorization: `Token ${info.credentials.api_key}` } }));
}

/** RecruitOS: OAuth client credentials at `/oauth2/token`, then a bearer token. */
async function recruitosClient(info: RoleInfo): Promise<Call> {
  const base = rel(info.baseUrl);
  const body = new URLSearchParams({ grant_type: "client_credentials", client_id: info.credentials.client_id, client_secret: info.credentials.client_secret });
  const token = await got(await farm(`${base}/oauth2/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: body.toString() }));
  if (token.status !== 200) throw new Error(`token mint failed: ${token.text}`);
  return async (path) => got(await farm(base + path, { headers: { authorization: `Bearer ${token.body.access_token}` } }));
}

const CLIENTS: Record<string, (info: RoleInfo) => Call | Promise<Call>> = { crewcall: crewcallClient, recruitos: recruitosClient };

/** Every record a list serves, read to its end at the largest page size (offset paging). */
async function readList(v: Vendor, call: Call, path: string, paging: Vendor["paging"] = v.paging): Promise<Record<string, unknown>[]> {
  const { position, size } = pagingParams(paging);
  const rows: Record<string, unknown>[] = [];
  for (let page = 0; page < 100; page++) {
    const res = await call(`${path}?${size}=${paging.maxLimit}&${position}=${rows.length}`);
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
    const items = res.body[v.envelope.items] as Record<string, unknown>[];
    rows.push(...items);
    if (items.length < paging.maxLimit) return rows;
  }
  throw new Error(`${path} did not end`);
}

/** Each regeneration a vendor's timeline declares, with its checkpoint. */
const REGENERATIONS = Object.values(VENDORS).flatMap((v) =>
  v.timeline.flatMap((cp) => cp.mutations.flatMap((m) => ("restartAt" in m ? [{ vendor: v, checkpoint: cp.checkpoint, entity: m.entity, count: m.count, restartAt: m.restartAt }] : []))),
);

describe("tenant regeneration (ids restart below the old maximum at a checkpoint)", () => {
  it("is declared by at least two vendors this test can drive", () => {
    expect(new Set(REGENERATIONS.map((r) => r.vendor.id)).size).toBeGreaterThanOrEqual(2);
    for (const r of REGENERATIONS) expect(CLIENTS[r.vendor.id], `a client for ${r.vendor.id}`).toBeDefined();
  });

  it.each(REGENERATIONS.map((r) => [`${r.vendor.id} ${r.entity} at checkpoint ${r.checkpoint}`, r] as const))(
    "%s: new records numbered below the old maximum, old ones deleted as the vendor shows deletes, lists show only the new ones",
    async (_name, r) => {
      const { vendor: v, entity, checkpoint, count, restartAt } = r;
      const resource = v.resources.find((x) => x.name === entity)!;
      const idField = resource.idField;
      const w = await createWorld({ ats: v.id }, 4, checkpoint - 1);
      let call = await CLIENTS[v.id](w.vendors.ats);
      const listPath = resource.list!;
      const paging = resource.paging ?? v.paging;
      const flag = deleteFlagField(v.deletes);
      const live = (rows: Record<string, unknown>[]) => rows.filter((x) => !flag || x[flag] !== true);

      const before = live(await readList(v, call, listPath, paging)).map((x) => Number(x[idField]));
      expect(before.length).toBeGreaterThan(0);
      const oldMax = Math.max(...before);

      const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint });
      expect(re.status).toBe(200);
      // A recreate opens a new epoch: tokens minted before it are gone.
      call = await CLIENTS[v.id](w.vendors.ats);

      const after = await readList(v, call, listPath, paging);
      const fresh = live(after).map((x) => Number(x[idField]));
      // Lists show exactly the regenerated records, numbered from restartAt.
      expect([...fresh].sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => restartAt + i));
      expect(fresh.every((id) => id < oldMax)).toBe(true);
      // A client that watermarks on the highest id it has seen finds none of them.
      expect(fresh.filter((id) => id > oldMax)).toEqual([]);
      expect(fresh.filter((id) => before.includes(id))).toEqual([]);

      // The old records read as deleted, the way this vendor shows deletes.
      // A style that serves a deleted record marks it with its flag; any other answers its status.
      const status = deletedReadStatus(v.deletes);
      const expected = status === null ? { status: 200, flagged: true } : { status, flagged: false };
      for (const id of before.slice(0, 3)) {
        const read = await call(resource.get!.replace(":id", String(id)));
        expect({ status: read.status, flagged: flag !== undefined && read.body?.[flag] === true }, `read of ${id}`).toEqual(expected);
      }
      // Every vendor that regenerates ids declares a delete feed; it lists each old record.
      const feed = deleteStyle(v.deletes).feed;
      const feedPath = feed?.path(v.deletes as never);
      expect(feedPath, `${v.id}'s delete feed`).toEqual(expect.any(String));
      const entityField = Object.entries(feed!.entry(v.deletes as never, { id: "x", entity: "ENTITY", deletedAt: "t" })).find(([, value]) => value === "ENTITY")![0];
      const tombstones = (await readList(v, call, feedPath!)).filter((t) => t[entityField] === entity).map((t) => Number(t.id));
      expect(before.filter((id) => !tombstones.includes(id))).toEqual([]);
    },
    30_000,
  );
});
