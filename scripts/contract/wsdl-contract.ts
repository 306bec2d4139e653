/**
 * A generic client of a SOAP 1.1 service, driven only by its documents: the
 * WSDL says the operations, their SOAPActions, their request elements (with
 * the `wb:role` each plays in paging and their documented limits) and the
 * records they answer; the OpenAPI document says how to authenticate (its
 * operation at the WSDL's endpoint). It reads every list operation to its
 * end, reads one record through each single-read operation, and checks each
 * answer against the types the WSDL declares. No vendor-specific code path.
 */
import { XMLParser } from "fast-xml-parser";
import { documentedClient } from "./openapi-contract.ts";

type Json = Record<string, any>;

export interface WsdlTarget {
  /** Vendor root, e.g. http://127.0.0.1:8787/w/w_.../pay. */
  baseUrl: string;
  credentials: Record<string, string>;
  /** The WSDL text the documentation serves. */
  wsdl: string;
  /** The OpenAPI document the documentation serves (for its security schemes). */
  openapi: Json;
}

export interface WsdlCrawl {
  /** Entity -> ids served by its list operation, in order, duplicates kept. */
  records: Record<string, string[]>;
  /** Ids the deletion feed operation listed. */
  deletions: string[];
  /** What went wrong, one line each ([] for a clean run). */
  problems: string[];
  requests: number;
  /** Operations exercised. */
  operations: string[];
}

interface Input {
  name: string;
  role?: string;
  max?: number;
  fixed?: string;
  required: boolean;
}

interface WsdlOperation {
  name: string;
  action: string;
  entity?: string;
  soapAction: string;
  inputs: Input[];
  /** Container element of repeated records (lists), if any. */
  container?: string;
  /** Fields of the answered record type, with whether each may be nil. */
  fields: { name: string; nillable: boolean }[];
  /** Extra answer elements (totals, next tokens). */
  extra: string[];
}

const SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
const PAGE_CAP = 2000;
const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

const wsdlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", removeNSPrefix: true });

/** The operations a WSDL describes, with everything a client needs to call them. */
export function readWsdl(text: string): { location: string; namespace: string; operations: WsdlOperation[] } {
  const defs = wsdlParser.parse(text).definitions;
  const schema = defs.types.schema;
  const elements = new Map<string, Json>(asArray<Json>(schema.element).map((e) => [e["@_name"], e]));
  const complex = new Map<string, Json>(asArray<Json>(schema.complexType).map((c) => [c["@_name"], c]));
  const actions = new Map<string, string>(asArray<Json>(defs.binding.operation).map((o) => [o["@_name"], o.operation["@_soapAction"]]));
  const local = (qname: string) => qname.split(":").pop()!;
  const operations = asArray<Json>(defs.portType.operation).map((o): WsdlOperation => {
    const name: string = o["@_name"];
    const request = elements.get(name);
    const inputs = asArray<Json>(request?.complexType?.sequence?.element).map((e) => {
      const max = e.simpleType?.restriction?.maxInclusive?.["@_value"];
      return { name: e["@_name"], role: e["@_role"], max: max === undefined ? undefined : Number(max), fixed: e["@_fixed"], required: e["@_minOccurs"] !== "0" };
    });
    const response = asArray<Json>(elements.get(`${name}Response`)?.complexType?.sequence?.element);
    let container: string | undefined;
    let recordType: string | undefined;
    const extra: string[] = [];
    for (const e of response) {
      if (e["@_type"]?.startsWith("tns:")) recordType = local(e["@_type"]);
      else if (e.complexType) {
        container = e["@_name"];
        recordType = local(asArray<Json>(e.complexType.sequence.element)[0]["@_type"]);
      } else extra.push(e["@_name"]);
    }
    const fields = asArray<Json>(complex.get(recordType ?? "")?.sequence?.element).map((f) => ({ name: f["@_name"], nillable: f["@_nillable"] === "true" }));
    return { name, action: o["@_action"], entity: o["@_entity"], soapAction: actions.get(name) ?? "", inputs, container, fields, extra };
  });
  return { location: defs.service.port.address["@_location"], namespace: schema["@_targetNamespace"], operations };
}

function envelope(namespace: string, operation: string, params: Record<string, string>): string {
  const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const inner = Object.entries(params)
    .map(([k, v]) => `<${k}>${esc(v)}</${k}>`)
    .join("");
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP_ENV}"><soap:Body><${operation} xmlns="${namespace}">${inner}</${operation}></soap:Body></soap:Envelope>`;
}

/**
 * The service a WSDL describes and a client that calls it with the credentials
 * the OpenAPI document gives its endpoint (the POST at the WSDL's address), or
 * why there is none.
 */
type ServiceClient =
  | { problem: string }
  | {
      service: ReturnType<typeof readWsdl>;
      client: ReturnType<typeof documentedClient>;
      send: (op: WsdlOperation, params: Record<string, string>) => ReturnType<ReturnType<typeof documentedClient>["send"]>;
    };

function serviceClient(target: WsdlTarget): ServiceClient {
  const service = readWsdl(target.wsdl);
  const server = String(target.openapi.servers?.[0]?.url ?? target.baseUrl);
  const endpoint = Object.entries<Json>(target.openapi.paths ?? {}).find(([path, ops]) => `${server}${path}` === service.location && ops.post);
  if (!endpoint) return { problem: `the OpenAPI document has no POST at the WSDL's endpoint ${service.location}` };
  const client = documentedClient({ baseUrl: target.baseUrl, credentials: target.credentials, doc: target.openapi });
  const operationId: string = endpoint[1].post.operationId;
  const send = (op: WsdlOperation, params: Record<string, string>) =>
    client.send(operationId, { text: { body: envelope(service.namespace, op.name, params), contentType: "text/xml; charset=utf-8" }, headers: { soapaction: `"${op.soapAction}"` } });
  return { service, client, send };
}

/** Authenticates as the documents say and calls the service's first list operation once; the HTTP status. */
export async function firstPageFromWsdl(target: WsdlTarget): Promise<number> {
  const s = serviceClient(target);
  if ("problem" in s) throw new Error(s.problem);
  const op = s.service.operations.find((o) => o.action === "list");
  if (!op) throw new Error("the WSDL has no list operation");
  return (await s.send(op, {})).status;
}

/** Reads every list of a SOAP service to its end, as its documents say to. */
export async function crawlWsdl(target: WsdlTarget): Promise<WsdlCrawl> {
  const problems: string[] = [];
  const result: WsdlCrawl = { records: {}, deletions: [], problems, requests: 0, operations: [] };
  const s = serviceClient(target);
  if ("problem" in s) return { ...result, problems: [s.problem] };
  const { service, client } = s;
  // Answers, records and the records inside a list's container are arrays; a record's fields are not.
  const containers = new Set(service.operations.map((o) => o.container).filter(Boolean));
  const isArray = (_name: string, jpath: unknown) => {
    const parts = String(jpath).split(".");
    return parts.length === 3 || parts.length === 4 || (parts.length === 5 && containers.has(parts[3]));
  };
  const responseParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "@_", removeNSPrefix: true, parseTagValue: false, isArray });

  const callOp = async (op: WsdlOperation, params: Record<string, string>): Promise<{ status: number; answer: Json | null; fault: string | null }> => {
    const res = await s.send(op, params);
    result.requests = client.calls.length;
    const body = responseParser.parse(res.text)?.Envelope?.Body ?? {};
    const fault = body.Fault?.[0];
    if (fault) return { status: res.status, answer: null, fault: `${fault.faultcode}: ${fault.faultstring}` };
    return { status: res.status, answer: body[`${op.name}Response`]?.[0] ?? null, fault: null };
  };

  const checkRecord = (op: WsdlOperation, record: Json, where: string) => {
    for (const f of op.fields) {
      if (!(f.name in record)) problems.push(`${where}: no <${f.name}>`);
      else if (!f.nillable && record[f.name]?.["@_nil"] === "true") problems.push(`${where}: <${f.name}> is nil but not nillable`);
    }
  };

  const idFieldOf = (entity: string) => service.operations.find((o) => o.action === "get" && o.entity === entity)?.inputs.find((i) => i.role === "id")?.name;

  for (const op of service.operations.filter((o) => o.action === "list" || o.action === "feed")) {
    result.operations.push(op.name);
    const position = op.inputs.find((i) => i.role === "position");
    const size = op.inputs.find((i) => i.role === "size");
    const fixed = Object.fromEntries(op.inputs.filter((i) => i.fixed !== undefined && (i.required || i.role === "sort")).map((i) => [i.name, i.fixed!]));
    const pageSize = size?.max ?? 50;
    const ids: string[] = [];
    const idField = op.entity ? (idFieldOf(op.entity) ?? op.fields[0]?.name) : "id";
    let start = 0;
    let pages = 0;
    for (;;) {
      if (++pages > PAGE_CAP) {
        problems.push(`${op.name}: more than ${PAGE_CAP} pages`);
        break;
      }
      const params: Record<string, string> = { ...fixed };
      if (position) params[position.name] = String(start);
      if (size) params[size.name] = String(pageSize);
      const r = await callOp(op, params);
      if (r.fault || !r.answer) {
        problems.push(`${op.name} page ${pages}: ${r.fault ?? `HTTP ${r.status} without an answer`}`);
        break;
      }
      const rows = asArray<Json>(op.container ? r.answer[op.container]?.[0] && Object.values(r.answer[op.container][0]).flat() : []).filter((x) => typeof x === "object");
      rows.forEach((row, i) => checkRecord(op, row, `${op.name} page ${pages} row ${i}`));
      ids.push(...rows.map((row) => String(row[idField ?? "id"])));
      if (!position || rows.length < pageSize) break;
      start += rows.length;
    }
    if (op.action === "feed") result.deletions = ids;
    else if (op.entity) result.records[op.entity] = ids;
  }

  for (const op of service.operations.filter((o) => o.action === "get")) {
    const id = result.records[op.entity ?? ""]?.[0];
    const idInput = op.inputs.find((i) => i.role === "id");
    if (!id || !idInput) continue;
    result.operations.push(op.name);
    const r = await callOp(op, { [idInput.name]: id });
    const record = r.answer?.[op.entity!]?.[0];
    if (!record) problems.push(`${op.name}(${id}): ${r.fault ?? "no record in the answer"}`);
    else {
      checkRecord(op, record, `${op.name}(${id})`);
      if (String(record[idInput.name]) !== id) problems.push(`${op.name}(${id}) answered ${record[idInput.name]}`);
    }
  }
  result.requests = client.calls.length;
  return result;
}
