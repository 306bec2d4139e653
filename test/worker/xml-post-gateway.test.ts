import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { admin, createWorld, farm, rel } from "./helpers.ts";

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false, isArray: (name) => ["check", "candidate"].includes(name) });

function request(namespace: string, operation: string, params: Record<string, string>): string {
  const inner = Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("");
  return `<?xml version="1.0"?><Request xmlns="${namespace}" operation="${operation}">${inner}</Request>`;
}

async function post(url: string, headers: Record<string, string>, body: string) {
  const res = await farm(url, { method: "POST", headers: { "content-type": "application/xml", ...headers }, body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get("content-type"), text, response: parser.parse(text).Response ?? {} };
}

async function vettly() {
  const w = await createWorld({ screen: "vettly" }, 4);
  const base = rel(w.vendors.screen.baseUrl);
  const c = w.vendors.screen.credentials;
  const minted = await farm(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret }).toString(),
  });
  const token = ((await minted.json()) as { access_token: string }).access_token;
  const call = (operation: string, params: Record<string, string> = {}, headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
    post(`${base}/xml/screening`, headers, request("urn:vettly:screening:1", operation, params));
  return { w, base, call, token };
}

describe("XML over POST (vettly's ScreeningXml, bullpen's Classic API)", () => {
  it("pages through every check with the REST list's cursor parameters, as elements", async () => {
    const { w, call } = await vettly();
    const seen: string[] = [];
    let token = "";
    for (let page = 0; page < 50; page++) {
      const r = await call("ListChecks", { page_size: "60", ...(token ? { page_token: token } : {}) });
      expect(r.status).toBe(200);
      expect(r.response["@_status"]).toBe("ok");
      expect(r.response["@_operation"]).toBe("ListChecks");
      seen.push(...((r.response.results?.check ?? []) as { id: string }[]).map((x) => x.id));
      token = typeof r.response.next_page_token === "string" ? r.response.next_page_token : "";
      if (!token) break;
    }
    const truth = await admin<{ entities: Record<string, { id: string; deleted: boolean }[]> }>("GET", `/v1/worlds/${w.world}/roles/screen/records`);
    expect([...seen].sort()).toEqual(
      truth.body.entities.check
        .filter((x) => !x.deleted)
        .map((x) => String(x.id))
        .sort(),
    );
  });

  it("answers failures inside a 200 with status=error and the code, credentials and validation alike", async () => {
    const { call, token } = await vettly();
    const missing = await call("CheckStatus", { id: "chk_nope" });
    expect(missing.status).toBe(200);
    expect(missing.response["@_status"]).toBe("error");
    expect(missing.response.Error["@_code"]).toBe("not_found");
    const invalid = await call("OrderCheck", { subject_id: "sub_nope", type: "astrology" });
    expect(invalid.status).toBe(200);
    expect(invalid.response.Error["@_code"]).toBe("validation_failed");
    expect(invalid.text).toContain("subject_id");
    const anonymous = await call("ListChecks", {}, {});
    expect(anonymous.status).toBe(200);
    expect(anonymous.response["@_status"]).toBe("error");
    const json = await call("ListChecks", {}, { authorization: `Bearer ${token}`, "content-type": "application/json" });
    expect(json.status).toBe(415);
    expect(json.response.Error["@_code"]).toBe("unsupported_media_type");
  });

  it("runs a write through the gateway that the REST API then shows", async () => {
    const { w, base, call } = await vettly();
    const truth = await admin<{ entities: Record<string, { id: string; deleted: boolean }[]> }>("GET", `/v1/worlds/${w.world}/roles/screen/records`);
    const subject = truth.body.entities.subject.find((s) => !s.deleted)!.id;
    const ordered = await call("OrderCheck", { subject_id: String(subject), type: "county_criminal", client_reference: "req-77" });
    expect(ordered.response["@_status"], ordered.text).toBe("ok");
    const id = ordered.response.check[0].id as string;
    const status = await call("CheckStatus", { id });
    expect(status.response.check[0].client_reference).toBe("req-77");
    expect(base).toContain("/w/");
  });

  it("bullpen's Classic API takes the legacy app token and pages candidates like the v2 list", async () => {
    const w = await createWorld({ ats: "bullpen" }, 2);
    const base = rel(w.vendors.ats.baseUrl);
    const headers = { "x-bullpen-app-token": w.vendors.ats.credentials.app_token };
    const r = await post(`${base}/classic/xmlapi`, headers, request("urn:bullpen:classic:2012", "CandidateSearch", { limit: "25" }));
    expect(r.status).toBe(200);
    expect(r.response["@_status"]).toBe("ok");
    expect(r.response.items.candidate).toHaveLength(25);
    const one = await post(`${base}/classic/xmlapi`, headers, request("urn:bullpen:classic:2012", "CandidateGet", { id: r.response.items.candidate[0].id }));
    expect(one.response.candidate[0].id).toBe(r.response.items.candidate[0].id);
  });
});
