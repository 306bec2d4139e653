import { describe, expect, it } from "vitest";
import { got, type Got } from "./clients.ts";
import { admin, createWorld, farm, type RoleInfo, rel } from "./helpers.ts";
import { onboardlyClient } from "./onboardly-client.ts";

const encoder = new TextEncoder();

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function concat(...chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A multipart/form-data body written by hand, byte for byte. */
function form(parts: { name: string; filename?: string; type?: string; bytes: Uint8Array }[], boundary = "----probe7MA4YWxkTrZu0gW"): { body: Uint8Array; contentType: string } {
  const chunks = parts.flatMap((p) => [
    encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`),
    p.bytes,
    encoder.encode("\r\n"),
  ]);
  return { body: concat(...chunks, encoder.encode(`--${boundary}--\r\n`)), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Bytes that are not UTF-8 (a PDF-ish header, then every byte value). */
function binaryFile(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(encoder.encode("%PDF-1.7\n"));
  for (let i = 9; i < size; i++) bytes[i] = (i * 31 + 7) % 256;
  return bytes;
}

async function talentloopClient(info: RoleInfo) {
  const base = rel(info.baseUrl);
  const token = await got(
    await farm(`${base}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: info.credentials.client_id, client_secret: info.credentials.client_secret }).toString(),
    }),
  );
  expect(token.status).toBe(200);
  return async (path: string, init: { method?: string; body?: Uint8Array | string; contentType?: string } = {}): Promise<Got> =>
    got(
      await farm(base + path, {
        method: init.method ?? "GET",
        body: init.body,
        headers: { authorization: `Bearer ${token.body.access_token}`, ...(init.contentType ? { "content-type": init.contentType } : {}) },
      }),
    );
}

interface LogRow {
  method: string;
  path: string;
  status: number;
  bodyBytes: number;
  bodyNote: string | null;
  bodySha256: string | null;
}

describe("multipart uploads (talentloop POST /v1/candidates/:id/attachments)", () => {
  it("stores the file part and answers 201 with its filename, type, size and SHA-256; the attachment is listed; the upload is logged once, by digest", async () => {
    const w = await createWorld({ ats: "talentloop" });
    const tl = await talentloopClient(w.vendors.ats);
    const candidate = (await tl("/v1/candidates?limit=1")).body.data[0].id as string;
    const before = (await tl(`/v1/candidates/${candidate}/attachments?limit=100`)).body.data as { id: string }[];
    const file = binaryFile(40_000);
    const sent = form([
      { name: "kind", bytes: encoder.encode("resume") },
      { name: "file", filename: "Lebenslauf Müller.pdf", type: "application/pdf", bytes: file },
    ]);
    const res = await tl(`/v1/candidates/${candidate}/attachments`, { method: "POST", body: sent.body, contentType: sent.contentType });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ candidate_id: candidate, kind: "resume", filename: "Lebenslauf Müller.pdf", content_type: "application/pdf", size: 40_000, sha256: await sha256Hex(file) });
    expect(res.body.id).toMatch(/^att_\d{6}$/);
    const after = (await tl(`/v1/candidates/${candidate}/attachments?limit=100`)).body.data as { id: string; sha256: string }[];
    expect(after.map((a) => a.id)).toEqual([...before.map((a) => a.id), res.body.id]);
    expect(after.at(-1)!.sha256).toBe(res.body.sha256);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`)).body.records as LogRow[];
    const uploads = log.filter((r) => r.method === "POST" && r.path.endsWith("/attachments"));
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ status: 201, bodyBytes: sent.body.byteLength, bodyNote: "not_utf8", bodySha256: await sha256Hex(sent.body) });
    const status = (await admin("GET", `/v1/worlds/${w.world}`)).body.roles.ats;
    expect(status).toMatchObject({ requests: log.length, unloggedRequests: 0 });
  });

  it("refuses a body that is not multipart (415), a file type it does not take (415), a missing file part (422), a missing kind (422), an over-size file (413), naming what was wrong", async () => {
    const w = await createWorld({ ats: "talentloop" });
    const tl = await talentloopClient(w.vendors.ats);
    const candidate = (await tl("/v1/candidates?limit=1")).body.data[0].id as string;
    const path = `/v1/candidates/${candidate}/attachments`;
    const post = (f: { body: Uint8Array | string; contentType: string }) => tl(path, { method: "POST", body: f.body, contentType: f.contentType });

    const json = await post({ body: JSON.stringify({ kind: "resume", file: "aGVsbG8=" }), contentType: "application/json" });
    expect(json.status).toBe(415);
    expect(json.body.error.message).toMatch(/multipart\/form-data.*application\/json/);

    const html = await post(
      form([
        { name: "kind", bytes: encoder.encode("other") },
        { name: "file", filename: "x.html", type: "text/html", bytes: encoder.encode("<p>hi</p>") },
      ]),
    );
    expect(html.status).toBe(415);
    expect(html.body.error.message).toMatch(/text\/html are not accepted.*application\/pdf/);

    const noFile = await post(form([{ name: "kind", bytes: encoder.encode("resume") }]));
    expect(noFile.status).toBe(422);
    expect(noFile.body.error.invalid_fields).toEqual([{ field: "file", message: 'a file part named "file" is required' }]);

    const fileAsField = await post(
      form([
        { name: "kind", bytes: encoder.encode("resume") },
        { name: "file", bytes: encoder.encode("not a file") },
      ]),
    );
    expect(fileAsField.status).toBe(422);
    expect(fileAsField.body.error.message).toMatch(/must be a file/);

    const noKind = await post(form([{ name: "file", filename: "cv.txt", type: "text/plain", bytes: encoder.encode("Jane Doe, engineer") }]));
    expect(noKind.status).toBe(422);
    expect(noKind.body.error.invalid_fields).toEqual([{ field: "kind", message: "is required" }]);

    const big = await post(
      form([
        { name: "kind", bytes: encoder.encode("portfolio") },
        { name: "file", filename: "big.pdf", type: "application/pdf", bytes: binaryFile(262_145) },
      ]),
    );
    expect(big.status).toBe(413);
    expect(big.body.error.message).toMatch(/limited to 262144 bytes/);

    const huge = await post(
      form([
        { name: "kind", bytes: encoder.encode("portfolio") },
        { name: "file", filename: "huge.pdf", type: "application/pdf", bytes: binaryFile(1_100_000) },
      ]),
    );
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/files are limited to 262144 bytes/);

    const broken = await post({ body: '--b\r\nContent-Disposition: form-data; name="kind"\r\n\r\nresume', contentType: "multipart/form-data; boundary=b" });
    expect(broken.status).toBe(400);

    expect((await tl(`/v1/candidates/${candidate}/attachments?limit=100`)).body.data.filter((a: { filename: string }) => ["x.html", "cv.txt", "big.pdf"].includes(a.filename))).toEqual([]);
    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`)).body.records as LogRow[];
    expect(log.filter((r) => r.path === path && r.method === "POST").map((r) => r.status)).toEqual([415, 415, 422, 422, 422, 413, 413, 400]);
  });

  it("documents the multipart body, the cap and the statuses", async () => {
    const w = await createWorld({ ats: "talentloop" });
    const docs = rel(w.vendors.ats.docsUrl);
    const api = (await (await farm(`${docs}openapi.json`)).json()) as any;
    const op = api.paths["/v1/candidates/{parentId}/attachments"].post;
    const media = op.requestBody.content["multipart/form-data"];
    expect(media.schema.required).toEqual(["file", "kind"]);
    expect(media.encoding.file.contentType).toMatch(/^application\/pdf, text\/plain/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["201", "413", "415", "422"]));
    expect(api.paths["/v1/candidates/{parentId}/attachments"].get.operationId).toBe("list_attachments");
    const page = await (await farm(`${docs}resource-attachments.md`)).text();
    expect(page).toMatch(/`multipart\/form-data`.*part named `file`.*262144 bytes/);
  });
});

describe("upload URLs (onboardly createDocument, then PUT upload_url)", () => {
  it("hands out an upload URL on the vendor host; the PUT of the raw bytes marks the document uploaded with their SHA-256", async () => {
    const w = await createWorld({ ats: "onboardly" });
    const ob = await onboardlyClient(w.vendors.ats);
    const packet = (await ob("/api/v1/packets?limit=1")).body.data[0].id as string;
    const created = await ob(`/api/v1/packets/${packet}/documents`, { method: "POST", body: JSON.stringify({ filename: "offer.pdf", content_type: "application/pdf" }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ packet_id: packet, filename: "offer.pdf", content_type: "application/pdf", status: "pending_upload", size: null, sha256: null });
    const url = created.body.upload_url as string;
    expect(url.startsWith(`${w.vendors.ats.baseUrl}/api/v1/uploads/`)).toBe(true);
    const listed = (await ob(`/api/v1/packets/${packet}/documents?limit=100`)).body.data as { id: string; status: string }[];
    expect(listed.find((d) => d.id === created.body.id)?.status).toBe("pending_upload");

    const put = (body: Uint8Array | string, type: string) => ob(rel(url).slice(rel(w.vendors.ats.baseUrl).length), { method: "PUT", body, headers: { "content-type": type } });
    const file = binaryFile(30_000);
    const wrongType = await put(file, "image/png");
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.message).toMatch(/Content-Type must be application\/pdf.*image\/png/);
    const tooBig = await put(binaryFile(262_145), "application/pdf");
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toMatch(/262144 bytes/);
    const empty = await put("", "application/pdf");
    expect(empty.status).toBe(422);
    const forged = await ob(`/api/v1/uploads/${encodeURIComponent(`${created.body.id}.0000000000`)}`, { method: "PUT", body: file, headers: { "content-type": "application/pdf" } });
    expect(forged.status).toBe(404);

    const uploaded = await put(file, "application/pdf; charset=binary");
    expect(uploaded.status).toBe(200);
    expect(uploaded.body).toMatchObject({ id: created.body.id, status: "uploaded", size: 30_000, sha256: await sha256Hex(file), upload_url: null });
    const again = await put(file, "application/pdf");
    expect(again.status).toBe(409);
    const after = (await ob(`/api/v1/packets/${packet}/documents?limit=100`)).body.data as { id: string; status: string; sha256: string }[];
    expect(after.find((d) => d.id === created.body.id)).toMatchObject({ status: "uploaded", sha256: await sha256Hex(file) });

    const bad = await ob(`/api/v1/packets/${packet}/documents`, { method: "POST", body: JSON.stringify({ filename: "notes.html", content_type: "text/html" }) });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ field: "content_type", message: "must be one of application/pdf, image/png, image/jpeg" }]);

    const log = (await admin("GET", `/v1/worlds/${w.world}/roles/ats/requests`)).body.records as LogRow[];
    const puts = log.filter((r) => r.method === "PUT");
    expect(puts.map((r) => r.status)).toEqual([415, 413, 422, 404, 200, 409]);
    expect(puts.find((r) => r.status === 200)).toMatchObject({ bodyBytes: 30_000, bodyNote: "not_utf8", bodySha256: await sha256Hex(file) });
    expect((await admin("GET", `/v1/worlds/${w.world}`)).body.roles.ats).toMatchObject({ requests: log.length, unloggedRequests: 0 });
  });

  it("documents the upload step in OpenAPI", async () => {
    const w = await createWorld({ ats: "onboardly" });
    const api = (await (await farm(`${rel(w.vendors.ats.docsUrl)}openapi.json`)).json()) as any;
    const put = api.paths["/api/v1/uploads/{token}"].put;
    expect(put.operationId).toBe("createDocument_upload");
    expect(Object.keys(put.requestBody.content)).toEqual(["application/pdf", "image/png", "image/jpeg"]);
    expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(["200", "404", "409", "413", "415", "422"]));
    expect(api.components.schemas.document.properties.upload_url.type).toEqual(["string", "null"]);
  });
});
