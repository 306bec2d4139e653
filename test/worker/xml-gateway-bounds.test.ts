/**
 * What the XML gateways refuse before they parse, and how: a document with
 * too many attributes or elements (413, quickly), a SOAP Envelope outside
 * SOAP 1.1's namespace (a VersionMismatch fault), and a media type whose
 * parameters mention XML (415). Every request is logged once, none is a
 * 5xx the vendor's stack would not send.
 */
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { admin, createWorld, farm, rel } from "./helpers.ts";

const parser = new XMLParser({ removeNSPrefix: true, ignoreAttributes: false, attributeNamePrefix: "@_", parseTagValue: false });
const SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
const PAY_NS = "http://paygrade.example/payroll/2011/";
const GATEWAY = "/services/PayrollGateway.asmx";
/** A 1 MiB-class body: 90,000 attributes on one element. */
const ATTRIBUTE_FLOOD = `<a ${Array.from({ length: 90_000 }, (_, i) => `b${i}="1"`).join(" ")}/>`;
const ELEMENT_FLOOD = `<r>${"<e/>".repeat(200_000)}</r>`;

const envelope = (ns: string, operation = "ListEmployees") =>
  `<?xml version="1.0"?><soap:Envelope xmlns:soap="${ns}"><soap:Body><${operation} xmlns="${PAY_NS}"><count>2</count></${operation}></soap:Body></soap:Envelope>`;

async function paygrade() {
  const w = await createWorld({ pay: "paygrade" }, 3);
  const base = rel(w.vendors.pay.baseUrl);
  const token = w.vendors.pay.credentials.app_token;
  const soap = async (body: string, headers: Record<string, string> = {}) => {
    const started = performance.now();
    const res = await farm(`${base}${GATEWAY}`, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=utf-8", soapaction: `"${PAY_NS}ListEmployees"`, "x-pg-app-token": token, ...headers },
      body,
    });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, fault: parser.parse(text).Envelope?.Body?.Fault, body: parser.parse(text).Envelope?.Body };
  };
  return { w, soap };
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
  const post = async (body: string, type = "application/xml") => {
    const started = performance.now();
    const res = await farm(`${base}/xml/screening`, { method: "POST", headers: { "content-type": type, authorization: `Bearer ${token}` }, body });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - started, response: parser.parse(text).Response ?? {} };
  };
  return { w, post };
}

describe("XML gateways refuse what costs the farm to parse", () => {
  it("SOAP (paygrade): 90,000 attributes or 200,000 elements get 413 in a SOAP Fault, quickly", async () => {
    const { w, soap } = await paygrade();
    for (const [body, what] of [
      [ATTRIBUTE_FLOOD, "attributes"],
      [ELEMENT_FLOOD, "elements"],
    ]) {
      const r = await soap(body);
      expect(r.status, what).toBe(413);
      expect(r.fault.faultcode).toBe("soap:Client");
      expect(r.fault.faultstring).toMatch(new RegExp(`more than \\d+ ${what}`));
      expect(r.fault.detail.GatewayError.code).toBe("request_too_large");
      expect(r.ms, what).toBeLessThan(500);
    }
    const log = await admin("GET", `/v1/worlds/${w.world}/roles/pay/requests`);
    expect(log.body.records.map((r: { status: number }) => r.status)).toEqual([413, 413]);
  });

  it("XML over POST (vettly): the same documents get 413, quickly", async () => {
    const { post } = await vettly();
    for (const body of [ATTRIBUTE_FLOOD, ELEMENT_FLOOD]) {
      const r = await post(body);
      expect(r.status).toBe(413);
      expect(r.response["@_status"]).toBe("error");
      expect(r.response.Error["@_code"]).toBe("request_too_large");
      expect(r.ms).toBeLessThan(500);
    }
  });
});

describe("SOAP 1.1 as real stacks read it (paygrade)", () => {
  it("answers an Envelope in any other namespace with a VersionMismatch fault, and serves the SOAP 1.1 one", async () => {
    const { soap } = await paygrade();
    for (const ns of ["http://www.w3.org/2003/05/soap-envelope", "urn:anything", "http://schemas.xmlsoap.org/soap/envelope"]) {
      const r = await soap(envelope(ns));
      expect(r.status, ns).toBe(500);
      expect(r.fault.faultcode, ns).toBe("soap:VersionMismatch");
      expect(r.fault.faultstring).toContain(SOAP_ENV);
      expect(r.fault.detail.GatewayError.code).toBe("version_mismatch");
    }
    const unbound = await soap(`<Envelope><Body><ListEmployees xmlns="${PAY_NS}"/></Body></Envelope>`);
    expect(unbound.fault.faultcode).toBe("soap:VersionMismatch");
    const ok = await soap(envelope(SOAP_ENV));
    expect(ok.status).toBe(200);
    expect(ok.body.ListEmployeesResponse).toBeTruthy();
    const defaultNs = await soap(`<Envelope xmlns="${SOAP_ENV}"><Body><ListEmployees xmlns="${PAY_NS}"><count>2</count></ListEmployees></Body></Envelope>`);
    expect(defaultNs.status).toBe(200);
  });

  it("reads the media type's essence: XML named only in a parameter is refused with 415", async () => {
    const { soap } = await paygrade();
    for (const type of ["application/json; x=text/xml", "application/json;charset=text/xml", "text/plain; boundary=text/xml", "application/xml+text/xml"]) {
      const r = await soap(envelope(SOAP_ENV), { "content-type": type });
      expect(r.status, type).toBe(415);
    }
    expect((await soap(envelope(SOAP_ENV), { "content-type": "application/soap+xml; x=text/xml" })).fault.faultstring).toContain("SOAP 1.2");
    for (const type of ["text/xml", "TEXT/XML ; charset=utf-8", 'text/xml;charset="utf-8"']) expect((await soap(envelope(SOAP_ENV), { "content-type": type })).status, type).toBe(200);
  });

  it("XML over POST (vettly) reads it the same way", async () => {
    const { post } = await vettly();
    const body = `<Request xmlns="urn:vettly:screening:1" operation="ListChecks"/>`;
    expect((await post(body, "application/json; x=/xml")).status).toBe(415);
    expect((await post(body, "application/xml; charset=utf-8")).status).toBe(200);
    expect((await post(body, "text/xml")).status).toBe(200);
  });
});
