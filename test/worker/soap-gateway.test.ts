import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { admin, createWorld, farm, rel } from "./helpers.ts";

const NS = "http://paygrade.example/payroll/2011/";
const GATEWAY = "/services/PayrollGateway.asmx";
const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name) => ["employee", "assignment", "deletion"].includes(name),
});

function envelope(operation: string, params: Record<string, string>): string {
  const inner = Object.entries(params)
    .map(([k, v]) => `<${k}>${v}</${k}>`)
    .join("");
  return `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><${operation} xmlns="${NS}">${inner}</${operation}></soap:Body></soap:Envelope>`;
}

async function call(base: string, token: string | null, operation: string, params: Record<string, string> = {}, init: { body?: string; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { "content-type": "text/xml; charset=utf-8", soapaction: `"${NS}${operation}"`, ...(token ? { "x-pg-app-token": token } : {}), ...init.headers };
  const res = await farm(`${base}${GATEWAY}`, { method: "POST", headers, body: init.body ?? envelope(operation, params) });
  const text = await res.text();
  const body = parser.parse(text).Envelope?.Body ?? {};
  return { status: res.status, type: res.headers.get("content-type"), text, body };
}

async function world(checkpoint = 0) {
  const w = await createWorld({ pay: "paygrade" }, 3, checkpoint);
  return { w, base: rel(w.vendors.pay.baseUrl), token: w.vendors.pay.credentials.app_token };
}

async function truth(worldId: string, entity: string): Promise<string[]> {
  const res = await admin<{ entities: Record<string, { id: string; deleted: boolean }[]> }>("GET", `/v1/worlds/${worldId}/roles/pay/records`);
  return res.body.entities[entity].filter((r) => !r.deleted).map((r) => String(r.id));
}

describe("a SOAP 1.1 gateway (paygrade's PayrollGateway)", () => {
  it("serves its WSDL without credentials, naming every operation, its SOAPAction and the endpoint", async () => {
    const { base, w } = await world();
    const res = await farm(`${base}${GATEWAY}?wsdl`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/xml");
    const wsdl = parser.parse(await res.text()).definitions;
    const ops = (wsdl.portType.operation as { "@_name": string }[]).map((o) => o["@_name"]);
    expect(ops).toContain("ListEmployees");
    expect(ops).toContain("UpdateAssignment");
    expect(wsdl.service.port.address["@_location"]).toBe(`${w.vendors.pay.baseUrl}${GATEWAY}`);
    const actions = (wsdl.binding.operation as { operation: { "@_soapAction": string } }[]).map((o) => o.operation["@_soapAction"]);
    expect(actions).toContain(`${NS}ListEmployees`);
    expect((await farm(`${base}${GATEWAY}`)).status).toBe(400);
  });

  it("pages through every employee with start and count, the total matching the records", async () => {
    const { w, base, token } = await world();
    const seen: string[] = [];
    let total = -1;
    for (let start = 0; start < 1000; start += 40) {
      const r = await call(base, token, "ListEmployees", { start: String(start), count: "40" });
      expect(r.status).toBe(200);
      expect(r.type).toContain("text/xml");
      const page = r.body.ListEmployeesResponse;
      total = Number(page.total_records);
      const rows = (page.records?.employee ?? []) as { employee_id: string }[];
      seen.push(...rows.map((e) => e.employee_id));
      if (rows.length < 40) break;
    }
    const expected = await truth(w.world, "employee");
    expect(total).toBe(expected.length);
    expect([...seen].sort()).toEqual([...expected].sort());
  });

  it("reads one record and answers an unknown id with a soap:Client fault carrying the code", async () => {
    const { w, base, token } = await world();
    const [id] = await truth(w.world, "employee");
    const ok = await call(base, token, "GetEmployee", { employee_id: id });
    expect(ok.status).toBe(200);
    expect(ok.body.GetEmployeeResponse.employee[0].employee_id).toBe(id);
    const missing = await call(base, token, "GetEmployee", { employee_id: "emp_99999" });
    expect(missing.status).toBe(500);
    expect(missing.body.Fault.faultcode).toBe("soap:Client");
    expect(missing.body.Fault.detail.GatewayError.code).toBe("not_found");
  });

  it("refuses what is not a well-formed SOAP 1.1 call, saying why, and logs every request once", async () => {
    const { w, base, token } = await world();
    const noAction = await call(base, token, "ListEmployees", {}, { headers: { soapaction: "" } });
    expect(noAction.body.Fault.detail.GatewayError.code).toBe("soap_action_mismatch");
    const soap12 = await call(base, token, "ListEmployees", {}, { headers: { "content-type": "application/soap+xml" } });
    expect(soap12.status).toBe(415);
    expect(soap12.body.Fault.faultstring).toContain("SOAP 1.1");
    const broken = await call(base, token, "ListEmployees", {}, { body: "<soap:Envelope><soap:Body><ListEmployees>" });
    expect(broken.status).toBe(500);
    expect(broken.body.Fault.faultstring).toMatch(/malformed XML/);
    const doctype = await call(base, token, "ListEmployees", {}, { body: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>' });
    expect(doctype.body.Fault.faultstring).toContain("document type");
    const deep = await call(base, token, "ListEmployees", {}, { body: `${"<a>".repeat(5000)}${"</a>".repeat(5000)}` });
    expect(deep.body.Fault.faultstring).toContain("deeper");
    const unknown = await call(base, token, "DropTables", {});
    expect(unknown.body.Fault.detail.GatewayError.code).toBe("unknown_operation");
    const anonymous = await call(base, null, "ListEmployees", {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.Fault.faultcode).toBe("soap:Client");
    const log = await admin<{ records: { path: string; status: number }[] }>("GET", `/v1/worlds/${w.world}/roles/pay/requests`);
    expect(log.body.records.filter((r) => r.path === GATEWAY).map((r) => r.status)).toEqual([500, 415, 500, 500, 500, 500, 401]);
  });

  it("lists deletions after a checkpoint and runs writes with body idempotency, faults for refusals", async () => {
    const { w, base, token } = await world(1);
    const deletions = await call(base, token, "ListDeletions", { start: "0", count: "100" });
    expect(deletions.status).toBe(200);
    expect(deletions.body.ListDeletionsResponse.records.deletion.length).toBeGreaterThan(0);
    const [id] = await truth(w.world, "assignment");
    const first = await call(base, token, "UpdateAssignment", { assignment_id: id, pay_rate: "2725", request_id: "r-1" });
    expect(first.status).toBe(200);
    expect(first.body.UpdateAssignmentResponse.assignment[0].pay_rate).toBe("2725");
    const replay = await call(base, token, "UpdateAssignment", { assignment_id: id, pay_rate: "2725", request_id: "r-1" });
    expect(replay.text.replace(/<last_changed>[^<]*<\/last_changed>/, "")).toBe(first.text.replace(/<last_changed>[^<]*<\/last_changed>/, ""));
    const read = await call(base, token, "GetAssignment", { assignment_id: id });
    expect(read.body.GetAssignmentResponse.assignment[0].pay_rate).toBe("2725");
    const bad = await call(base, token, "UpdateAssignment", { assignment_id: id, state: "paused", pay_rate: "lots" });
    expect(bad.status).toBe(500);
    expect(bad.body.Fault.faultcode).toBe("soap:Client");
    expect(bad.body.Fault.detail.GatewayError.code).toBe("validation_failed");
    expect(bad.text).toContain("state");
    expect(bad.text).toContain("pay_rate");
  });
});
