import { describe, expect, it } from "vitest";
import type { Vendor } from "../../declarations/schema/vendor.ts";
import { VENDORS } from "../../declarations/vendors/index.ts";
import { parseCsv } from "../../scripts/contract/csv.ts";
import { admin, createWorld, farm, rel, type RoleInfo } from "./helpers.ts";

/** One answer as the test reads it: the raw bytes kept, so a byte order mark is not lost to decoding. */
interface Answer {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
  body: any;
}

/** What the vendor should have logged for each request the client sent. */
interface Sent {
  method: string;
  path: string;
  status: number;
}

/** A bearer-token client (RecruitOS and PlaceMint both mint by client credentials) that remembers what it sent. */
async function bearerClient(info: RoleInfo, mintPath: string) {
  const base = rel(info.baseUrl);
  const sent: Sent[] = [];
  const raw = async (method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> => {
    const res = await farm(base + path, { method, headers, body });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true }).decode(bytes);
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    sent.push({ method, path: path.split("?")[0], status: res.status });
    return { status: res.status, headers: res.headers, bytes, text, body: parsed };
  };
  const form = new URLSearchParams({ grant_type: "client_credentials", client_id: info.credentials.client_id, client_secret: info.credentials.client_secret });
  const minted = await raw("POST", mintPath, { "content-type": "application/x-www-form-urlencoded" }, form.toString());
  if (minted.status !== 200) throw new Error(`token mint failed: ${minted.text}`);
  const auth = { authorization: `Bearer ${minted.body.access_token}` };
  /** A JSON body is serialised; a string is sent as it is. */
  const call = (method: string, path: string, body?: unknown) =>
    raw(method, path, { ...auth, "content-type": "application/json" }, body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body));
  return Object.assign(call, { sent });
}

type Client = Awaited<ReturnType<typeof bearerClient>>;

function declaredExports(v: Vendor) {
  const e = v.exports;
  if (!e) throw new Error(`${v.id} declares no exports`);
  return e;
}

const at = (template: string, id: string) => template.replace(":id", encodeURIComponent(id));

/** A wire value as a CSV field holds it. */
const cell = (v: unknown) => (v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

/** Live records of an entity as the vendor serves them (every optional field on): the control plane's ground truth. */
async function liveRecords(world: string, entity: string): Promise<Record<string, unknown>[]> {
  const truth = await admin<{ entities: Record<string, { deleted: boolean; record: Record<string, unknown> }[]> }>("GET", `/v1/worlds/${world}/roles/ats/records`);
  return truth.body.entities[entity].filter((x) => !x.deleted).map((x) => x.record);
}

/** Polls a job's status until it is ready; every status the polls answered. */
async function pollUntilReady(client: Client, statusPath: string, statusField: string, max = 20): Promise<{ seen: string[]; job: any }> {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    const res = await client("GET", statusPath);
    expect(res.status).toBe(200);
    seen.push(res.body[statusField]);
    if (res.body[statusField] === "ready") return { seen, job: res.body };
  }
  throw new Error(`not ready after ${max} polls: ${seen.join(", ")}`);
}

/** The request log of the role, as the control plane returns it. */
async function requestLog(world: string): Promise<Sent[]> {
  const log = await admin<{ records: Sent[] }>("GET", `/v1/worlds/${world}/roles/ats/requests`);
  return log.body.records.map((r) => ({ method: r.method, path: r.path, status: r.status }));
}

const BOM = [0xef, 0xbb, 0xbf];

describe("CSV export jobs (recruitos: comma, no BOM, two polls, camelCase, no expiry)", () => {
  const v = VENDORS.recruitos;
  const e = declaredExports(v);
  const candidates = e.resources.find((x) => x.name === "candidates")!;

  it("requests, polls until ready, and downloads a snapshot whose rows are the live records' wire values", async () => {
    const w = await createWorld({ ats: "recruitos" });
    const ros = await bearerClient(w.vendors.ats, "/oauth2/token");

    // A record whose values need every kind of quoting: the delimiter, a double quote, CR and LF.
    const awkward = 'O"Neil, Jr.\r\nthe second';
    const created = await ros("POST", "/api/v3/candidates", { firstName: "Zoë", lastName: awkward, email: "zoe.oneil@example.test", city: "Leeds, UK" });
    expect(created.status, created.text).toBe(201);

    const requested = await ros("POST", e.requestPath, { resource: "candidates" });
    expect(requested.status, requested.text).toBe(202);
    const id: string = requested.body.id;
    expect(requested.body).toMatchObject({ status: "queued", resource: "candidates", rowCount: null, downloadUrl: null });
    expect(requested.headers.get("location")).toBe(`${w.vendors.ats.baseUrl}${at(e.statusPath, id)}`);
    const truth = await liveRecords(w.world, "candidate");

    // Later changes do not reach the snapshot.
    const later = await ros("POST", "/api/v3/candidates", { firstName: "Late", lastName: "Comer", email: "late.comer@example.test" });
    expect(later.status).toBe(201);

    const early = await ros("GET", at(e.downloadPath, id));
    expect(early.status).toBe(409);
    expect(early.body.errorCode).toBe("export_not_ready");

    // A HEAD of the status is no poll.
    expect((await ros("HEAD", at(e.statusPath, id))).status).toBe(200);
    const { seen, job } = await pollUntilReady(ros, at(e.statusPath, id), "status");
    expect(seen).toEqual([...Array(e.pollsUntilReady).fill("running"), "ready"]);
    expect(job.downloadUrl).toBe(`${w.vendors.ats.baseUrl}${at(e.downloadPath, id)}`);
    expect(job.rowCount).toBe(truth.length);

    const file = await ros("GET", rel(job.downloadUrl).slice(rel(w.vendors.ats.baseUrl).length));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect([...file.bytes.slice(0, 3)]).not.toEqual(BOM);
    expect(file.text.endsWith("\r\n")).toBe(true);
    const [header, ...rows] = parseCsv(file.text, { delimiter: ",", lineEnding: "\r\n" });
    expect(header).toEqual(candidates.columns.map((c) => c.header));
    expect(rows).toHaveLength(truth.length);

    const byId = new Map(truth.map((r) => [String(r.id), r]));
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(byId.keys()));
    for (const row of rows) {
      const record = byId.get(row[0])!;
      expect(row).toEqual(candidates.columns.map((c) => cell(record[c.field])));
    }
    const mine = rows.find((r) => r[0] === String(created.body.id))!;
    expect(mine[header.indexOf("Last name")]).toBe(awkward);
    expect(file.text).toContain('"O""Neil, Jr.\r\nthe second"');
    const cities = rows.map((r) => r[header.indexOf("City")]);
    expect(cities.filter((c) => c.includes(",")).length).toBeGreaterThan(10);
    expect(file.text).toContain(',"Leeds, UK",');
    expect(rows.some((r) => r[0] === String(later.body.id))).toBe(false);

    // The link does not expire.
    const again = await ros("GET", at(e.downloadPath, id));
    expect(again.status).toBe(200);
    expect(again.text).toBe(file.text);

    expect(await requestLog(w.world)).toEqual(ros.sent);
  });

  it("refuses an unknown export, a missing one, a bad filter and an unknown job, naming what was wrong", async () => {
    const w = await createWorld({ ats: "recruitos" });
    const ros = await bearerClient(w.vendors.ats, "/oauth2/token");
    const unknown = await ros("POST", e.requestPath, { resource: "companies" });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errorCode).toBe("validation_failed");
    expect(unknown.body.fieldErrors).toEqual([{ field: "resource", message: "must be one of: candidates, applications" }]);
    const missing = await ros("POST", e.requestPath, {});
    expect(missing.body.fieldErrors).toEqual([{ field: "resource", message: "is required" }]);
    const badSince = await ros("POST", e.requestPath, { resource: "candidates", modifiedSince: "last tuesday" });
    expect(badSince.status).toBe(422);
    expect(badSince.body.fieldErrors).toEqual([{ field: "modifiedSince", message: expect.stringMatching(/^must be a timestamp/) }]);
    expect(badSince.body.errorMessage).toMatch(/^modifiedSince must be a timestamp/);
    const notJson = await ros("POST", e.requestPath, "{");
    expect(notJson.status).toBe(400);
    expect(notJson.body.errorCode).toBe("invalid_body");
    for (const path of [at(e.statusPath, "exp_9_9999"), at(e.downloadPath, "exp_9_9999"), at(e.statusPath, "%E0%A4%A")]) {
      const res = await ros("GET", path);
      expect(res.status, path).toBe(404);
      expect(res.body.errorCode).toBe("not_found");
    }
    const anonymous = await farm(`${rel(w.vendors.ats.baseUrl)}${e.requestPath}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ resource: "candidates" }),
    });
    expect(anonymous.status).toBe(401);
    const log = await requestLog(w.world);
    expect(log).toEqual([...ros.sent, { method: "POST", path: e.requestPath, status: 401 }]);
  });

  it("forgets jobs when the role is recreated", async () => {
    const w = await createWorld({ ats: "recruitos" });
    const ros = await bearerClient(w.vendors.ats, "/oauth2/token");
    const requested = await ros("POST", e.requestPath, { resource: "applications" });
    expect(requested.status).toBe(202);
    const recreated = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0 });
    expect(recreated.status).toBe(200);
    const fresh = await bearerClient(w.vendors.ats, "/oauth2/token");
    expect((await fresh("GET", at(e.statusPath, requested.body.id))).status).toBe(404);
  });
});

describe("CSV export jobs (placemint: semicolon, BOM, three polls, snake_case, two downloads)", () => {
  const v = VENDORS.placemint;
  const e = declaredExports(v);
  const fees = e.resources.find((x) => x.name === "fee_statements")!;

  it("writes a BOM and semicolons, quotes what holds a semicolon or a quote, exports flagged fields, and expires after two downloads", async () => {
    const w = await createWorld({ ats: "placemint" });
    const pm = await bearerClient(w.vendors.ats, "/oauth/token");
    const awkward = 'Ops; "Night" shift';
    const patched = await pm("PATCH", "/v2/placements/plc_000001", { cost_center: awkward });
    expect(patched.status, patched.text).toBe(200);

    const requested = await pm("POST", e.requestPath, { resource: "fee_statements" });
    expect(requested.status, requested.text).toBe(202);
    expect(requested.body).toMatchObject({ status: "queued", row_count: null, download_url: null, downloads_left: 2 });
    const id: string = requested.body.id;
    const truth = await liveRecords(w.world, "placement");

    const { seen, job } = await pollUntilReady(pm, at(e.statusPath, id), "status");
    expect(seen).toEqual(["running", "running", "running", "ready"]);
    expect(job.download_url).toBe(`${w.vendors.ats.baseUrl}${at(e.downloadPath, id)}`);

    const file = await pm("GET", at(e.downloadPath, id));
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect([...file.bytes.slice(0, 3)]).toEqual(BOM);
    const text = file.text.slice(1);
    const [header, ...rows] = parseCsv(text, { delimiter: ";", lineEnding: "\r\n" });
    expect(header).toEqual(fees.columns.map((c) => c.header));
    expect(rows).toHaveLength(truth.length);
    const byId = new Map(truth.map((r) => [String(r.id), r]));
    expect(new Set(rows.map((r) => r[0]))).toEqual(new Set(byId.keys()));
    for (const row of rows) expect(row).toEqual(fees.columns.map((c) => cell(byId.get(row[0])![c.field])));
    // The fee is exported although lists serve it only with include_fees=true.
    expect(rows.every((r) => /^\d+$/.test(r[header.indexOf("Agency fee (bps)")]))).toBe(true);
    expect(rows.find((r) => r[0] === "plc_000001")![header.indexOf("Cost centre")]).toBe(awkward);
    expect(text).toContain(';"Ops; ""Night"" shift";');
    // A comma is no delimiter here: such values stay unquoted.
    const location = rows.map((r) => r[header.indexOf("Work location")]).find((l) => l.includes(","))!;
    expect(text).toContain(`;${location};`);

    expect((await pm("GET", at(e.downloadPath, id))).status).toBe(200);
    const spent = await pm("GET", at(e.statusPath, id));
    expect(spent.body).toMatchObject({ status: "expired", downloads_left: 0, download_url: null });
    const gone = await pm("GET", at(e.downloadPath, id));
    expect(gone.status).toBe(410);
    expect(gone.body.code).toBe("export_expired");

    expect(await requestLog(w.world)).toEqual(pm.sent);
  });

  it("honours the incremental filter in the request body", async () => {
    const w = await createWorld({ ats: "placemint" });
    const pm = await bearerClient(w.vendors.ats, "/oauth/token");
    const truth = await liveRecords(w.world, "placement");
    const pivot = [...truth].sort((a, b) => Date.parse(String(a.updated_at)) - Date.parse(String(b.updated_at)))[200].updated_at as string;
    const expected = truth.filter((r) => Date.parse(String(r.updated_at)) >= Date.parse(pivot)).map((r) => String(r.id));
    const requested = await pm("POST", e.requestPath, { resource: "fee_statements", modified_since: pivot });
    expect(requested.status, requested.text).toBe(202);
    const { job } = await pollUntilReady(pm, at(e.statusPath, requested.body.id), "status");
    expect(job.row_count).toBe(expected.length);
    const file = await pm("GET", at(e.downloadPath, requested.body.id));
    const [, ...rows] = parseCsv(file.text.slice(1), { delimiter: ";", lineEnding: "\r\n" });
    expect(rows.map((r) => r[0]).sort()).toEqual(expected.sort());
    const bad = await pm("POST", e.requestPath, { resource: "fee_statements", modified_since: "soon" });
    expect(bad.status).toBe(422);
    expect(bad.body.field_errors[0].field).toBe("modified_since");
    expect(await requestLog(w.world)).toEqual(pm.sent);
  });

  it("export-not-ready: the first download of a ready fee statement answers 409 export_not_ready without spending a download, the next serves the file", async () => {
    const w = await createWorld({ ats: "placemint" });
    const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["pm-fee-statements-file-late"] });
    expect(re.status).toBe(200);
    const pm = await bearerClient(w.vendors.ats, "/oauth/token");
    const id: string = (await pm("POST", e.requestPath, { resource: "fee_statements" })).body.id;
    await pollUntilReady(pm, at(e.statusPath, id), "status");
    const held = await pm("GET", at(e.downloadPath, id));
    expect(held.status).toBe(409);
    expect(held.body.code).toBe("export_not_ready");
    expect((await pm("GET", at(e.statusPath, id))).body).toMatchObject({ status: "ready", downloads_left: 2 });
    const file = await pm("GET", at(e.downloadPath, id));
    expect(file.status).toBe(200);
    expect(file.text.slice(1).split("\r\n")[0]).toBe(fees.columns.map((c) => c.header).join(";"));
    // Another export is not held back: the fault holds the first download only.
    const other: string = (await pm("POST", e.requestPath, { resource: "fee_statements" })).body.id;
    await pollUntilReady(pm, at(e.statusPath, other), "status");
    expect((await pm("GET", at(e.downloadPath, other))).status).toBe(200);
    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`)).body.records as { path: string; status: number; faults: string[] }[];
    expect(log.filter((r) => r.faults.includes("pm-fee-statements-file-late")).map((r) => [r.path, r.status])).toEqual([[at(e.downloadPath, id), 409]]);
  });

  it("connection-reset on the download route only: the request and the polls come whole, the first file breaks off part-way, the next download is whole", async () => {
    const w = await createWorld({ ats: "placemint" });
    const re = await admin("POST", `/v1/worlds/${w.world}/roles/ats/recreate`, { checkpoint: 0, faults: ["pm-export-file-reset"] });
    expect(re.status).toBe(200);
    const pm = await bearerClient(w.vendors.ats, "/oauth/token");
    const id: string = (await pm("POST", e.requestPath, { resource: "fee_statements" })).body.id;
    await pollUntilReady(pm, at(e.statusPath, id), "status");
    await expect(pm("GET", at(e.downloadPath, id))).rejects.toThrow();
    const file = await pm("GET", at(e.downloadPath, id));
    expect(file.status).toBe(200);
    expect(file.text.slice(1).split("\r\n")[0]).toBe(fees.columns.map((c) => c.header).join(";"));
    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests?epoch=1`)).body.records as { path: string; status: number; faults: string[] }[];
    expect(log.filter((r) => r.faults.includes("pm-export-file-reset")).map((r) => [r.path, r.status])).toEqual([[at(e.downloadPath, id), 200]]);
    // Unarmed (a development world), the same download comes whole the first time.
    const calm = await createWorld({ ats: "placemint" });
    const pm2 = await bearerClient(calm.vendors.ats, "/oauth/token");
    const job: string = (await pm2("POST", e.requestPath, { resource: "fee_statements" })).body.id;
    await pollUntilReady(pm2, at(e.statusPath, job), "status");
    expect((await pm2("GET", at(e.downloadPath, job))).status).toBe(200);
  });
});
