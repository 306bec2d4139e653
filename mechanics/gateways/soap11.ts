/**
 * @module gateways/soap11
 * A SOAP 1.1 endpoint, document/literal: every call is an envelope POSTed as
 * `text/xml` with a `SOAPAction` header naming the operation; answers are
 * envelopes holding `<OperationResponse>`, failures SOAP Faults. As SOAP 1.1
 * over HTTP prescribes (§6.2), a fault is sent with HTTP 500, except the
 * refusals HTTP itself gives (credentials, media type, size, rate, outage),
 * which keep their status. The WSDL is served at `GET <path>?wsdl`.
 */
import { z } from "zod";
import { text } from "../kit/reply.ts";
import { mediaTypeEssence } from "../kit/media-type.ts";
import { defineGateway, type GatewayDescription, gatewayCommon } from "./define.ts";
import { childElements, readXml, simpleParams, toXmlValue, writeXml } from "./xml.ts";
import { escapeXml, paramElements } from "./xml-text.ts";

const SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
const XSI = "http://www.w3.org/2001/XMLSchema-instance";
/** The refusal of an Envelope in another namespace, answered with SOAP 1.1's VersionMismatch fault (§4.4.1). */
const VERSION_MISMATCH = "version_mismatch";
/** Statuses HTTP gives on its own; every other failure is a fault with 500. */
const TRANSPORT_STATUSES = new Set([401, 413, 415, 429, 503]);

const schema = z.object({ style: z.literal("soap11"), ...gatewayCommon });
type Soap = z.infer<typeof schema>;

/** The SOAPAction of an operation: the namespace joined with its name. */
export function soapAction(g: { namespace: string }, operation: string): string {
  return g.namespace.endsWith("/") || g.namespace.endsWith("#") ? `${g.namespace}${operation}` : `${g.namespace}/${operation}`;
}

function envelope(body: Record<string, unknown>): string {
  return writeXml({ "soap:Envelope": { "@_xmlns:soap": SOAP_ENV, "@_xmlns:xsi": XSI, "soap:Body": body } });
}

function wsdl(g: Soap, d: GatewayDescription): string {
  const ns = escapeXml(g.namespace);
  const doc = (text: string, indent: string) => `${indent}<xsd:annotation><xsd:documentation>${escapeXml(text)}</xsd:documentation></xsd:annotation>`;
  const types: string[] = [];
  const records = new Map<string, GatewayDescription["operations"][number]["output"]["fields"]>();
  for (const op of d.operations) {
    const inputs = op.inputs
      .map(
        (i) =>
          `          <xsd:element name="${i.name}"${i.max === undefined ? ` type="${i.type}"` : ""} minOccurs="${i.required ? 1 : 0}"${i.fixed === undefined ? "" : ` fixed="${escapeXml(i.fixed)}"`}${i.role ? ` wb:role="${i.role}"` : ""}>\n${doc(i.description, "            ")}${
            i.max === undefined
              ? ""
              : `\n            <xsd:simpleType><xsd:restriction base="${i.type}"><xsd:minInclusive value="1"/><xsd:maxInclusive value="${i.max}"/></xsd:restriction></xsd:simpleType>`
          }\n          </xsd:element>`,
      )
      .join("\n");
    types.push(`      <xsd:element name="${op.name}">\n        <xsd:complexType>\n          <xsd:sequence>\n${inputs}\n          </xsd:sequence>\n        </xsd:complexType>\n      </xsd:element>`);
    const out = op.output;
    records.set(out.item, out.fields);
    const itemEl = `<xsd:element name="${out.item}" type="tns:${out.item}" minOccurs="0" maxOccurs="${out.container ? "unbounded" : "1"}"/>`;
    const holder = out.container ? `<xsd:element name="${out.container}" minOccurs="0"><xsd:complexType><xsd:sequence>${itemEl}</xsd:sequence></xsd:complexType></xsd:element>` : itemEl;
    const extra = out.extra.map((e) => `<xsd:element name="${e.name}" type="${e.type}" minOccurs="0" nillable="true"/>`).join("");
    types.push(`      <xsd:element name="${op.name}Response">\n        <xsd:complexType><xsd:sequence>${holder}${extra}</xsd:sequence></xsd:complexType>\n      </xsd:element>`);
  }
  for (const [name, fields] of records)
    types.push(
      `      <xsd:complexType name="${name}">\n        <xsd:sequence>\n${fields.map((f) => `          <xsd:element name="${f.name}" type="${f.type}" minOccurs="0"${f.nullable ? ' nillable="true"' : ""}/>`).join("\n")}\n        </xsd:sequence>\n      </xsd:complexType>`,
    );
  types.push(
    '      <xsd:element name="GatewayError">\n        <xsd:complexType><xsd:sequence><xsd:element name="code" type="xsd:string"/><xsd:element name="message" type="xsd:string"/></xsd:sequence></xsd:complexType>\n      </xsd:element>',
  );
  const messages = d.operations
    .map(
      (op) =>
        `  <wsdl:message name="${op.name}In"><wsdl:part name="parameters" element="tns:${op.name}"/></wsdl:message>\n  <wsdl:message name="${op.name}Out"><wsdl:part name="parameters" element="tns:${op.name}Response"/></wsdl:message>`,
    )
    .join("\n");
  const portOps = d.operations
    .map(
      (op) =>
        `    <wsdl:operation name="${op.name}" wb:action="${op.action}"${op.output.item ? ` wb:entity="${op.output.item}"` : ""}>\n      <wsdl:documentation>${escapeXml(op.description)}</wsdl:documentation>\n      <wsdl:input message="tns:${op.name}In"/>\n      <wsdl:output message="tns:${op.name}Out"/>\n    </wsdl:operation>`,
    )
    .join("\n");
  const bindingOps = d.operations
    .map(
      (op) =>
        `    <wsdl:operation name="${op.name}">\n      <soap:operation soapAction="${escapeXml(soapAction(g, op.name))}" style="document"/>\n      <wsdl:input><soap:body use="literal"/></wsdl:input>\n      <wsdl:output><soap:body use="literal"/></wsdl:output>\n    </wsdl:operation>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions name="${g.service}" targetNamespace="${ns}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:tns="${ns}" xmlns:wb="urn:wirebench:wsdl">
  <wsdl:types>
    <xsd:schema targetNamespace="${ns}" elementFormDefault="qualified">
${types.join("\n")}
    </xsd:schema>
  </wsdl:types>
${messages}
  <wsdl:portType name="${g.service}Soap">
${portOps}
  </wsdl:portType>
  <wsdl:binding name="${g.service}Soap" type="tns:${g.service}Soap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
${bindingOps}
  </wsdl:binding>
  <wsdl:service name="${g.service}">
    <wsdl:port name="${g.service}Soap" binding="tns:${g.service}Soap">
      <soap:address location="${escapeXml(d.location)}"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>
`;
}

export const soap11Gateway = defineGateway({
  schema,
  parse(g, req) {
    const type = mediaTypeEssence(req.headers.get("content-type"));
    if (type === "application/soap+xml")
      return { ok: false, refusal: { status: 415, code: "unsupported_media_type", message: "this endpoint speaks SOAP 1.1: send text/xml, not SOAP 1.2's application/soap+xml" } };
    if (type !== "text/xml") return { ok: false, refusal: { status: 415, code: "unsupported_media_type", message: "SOAP 1.1 requests must be sent as text/xml" } };
    const read = readXml(req.rawBody);
    if (!read.ok) return { ok: false, refusal: { status: read.tooLarge ? 413 : 400, code: read.tooLarge ? "request_too_large" : "malformed_request", message: read.message } };
    const root = read.root;
    if (root?.local === "Envelope" && root.namespaces[root.prefix] !== SOAP_ENV)
      return {
        ok: false,
        refusal: {
          status: 400,
          code: VERSION_MISMATCH,
          message: `the Envelope is in namespace ${root.namespaces[root.prefix] === undefined ? "(none)" : `"${root.namespaces[root.prefix]}"`}; this endpoint speaks SOAP 1.1, whose Envelope is in "${SOAP_ENV}"`,
        },
      };
    const env = read.doc.Envelope;
    if (!env || typeof env !== "object" || Array.isArray(env)) return { ok: false, refusal: { status: 400, code: "malformed_request", message: "the document is not a SOAP Envelope" } };
    const body = (env as Record<string, unknown>).Body;
    const ops = childElements(body);
    if (ops.length !== 1 || Array.isArray(ops[0][1])) return { ok: false, refusal: { status: 400, code: "malformed_request", message: "the SOAP Body must hold exactly one operation element" } };
    const [operation, node] = ops[0];
    if (!g.operations.some((o) => o.name === operation)) return { ok: false, refusal: { status: 400, code: "unknown_operation", message: `${g.service} has no operation ${operation}` } };
    const action = req.headers.get("soapaction");
    if (action === null) return { ok: false, refusal: { status: 400, code: "soap_action_missing", message: `the SOAPAction header is required ("${soapAction(g, operation)}")` } };
    if (action.trim().replace(/^"|"$/g, "") !== soapAction(g, operation))
      return { ok: false, refusal: { status: 400, code: "soap_action_mismatch", message: `SOAPAction ${action} does not match the operation in the body (${soapAction(g, operation)})` } };
    const params = simpleParams(node);
    if (!params.ok) return { ok: false, refusal: { status: 400, code: "malformed_request", message: params.message } };
    return { ok: true, call: { operation, params: params.params } };
  },
  render(g, operation, meaning, itemTag, headers) {
    const xml = "text/xml; charset=utf-8";
    if (meaning.ok) {
      const response = { "@_xmlns": g.namespace, ...(toXmlValue(meaning.body, itemTag) as Record<string, unknown>) };
      return text(meaning.status, envelope({ [`${operation}Response`]: response }), xml, headers);
    }
    const client = meaning.status < 500;
    const detail = { GatewayError: { "@_xmlns": g.namespace, code: meaning.code, message: meaning.message, ...(toXmlValue(meaning.detail, itemTag) as Record<string, unknown>) } };
    const fault = { faultcode: meaning.code === VERSION_MISMATCH ? "soap:VersionMismatch" : client ? "soap:Client" : "soap:Server", faultstring: meaning.message, detail };
    return text(TRANSPORT_STATUSES.has(meaning.status) ? meaning.status : 500, envelope({ "soap:Fault": fault }), xml, headers);
  },
  description: wsdl,
  docs: {
    label: "SOAP 1.1 + WSDL",
    overview: (g, baseUrl) => [
      `Every call is a SOAP 1.1 envelope (document/literal) POSTed to \`${g.path}\` with \`Content-Type: text/xml; charset=utf-8\` and a \`SOAPAction\` header naming the operation: the namespace \`${g.namespace}\` joined with the operation name, e.g. \`"${soapAction(g, g.operations[0].name)}"\`.`,
      "",
      `The service description is at \`${baseUrl}${g.path}?wsdl\`.`,
      "",
      "A successful call answers `200` with `<OperationResponse>` in the body. A failed call answers a SOAP Fault: `faultcode` is `soap:Client` when the request was at fault and `soap:Server` otherwise, `faultstring` says why, and `detail/GatewayError` carries the `code`. Faults are sent with HTTP `500`, as SOAP 1.1 prescribes, except missing credentials (`401`), a wrong media type (`415`), an oversized body (`413`), rate limiting (`429`) and outages (`503`).",
    ],
    exampleRequest: (g, operation, params) =>
      `<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="${SOAP_ENV}">\n  <soap:Body>\n    <${operation} xmlns="${escapeXml(g.namespace)}">\n${paramElements(params, "      ")}\n    </${operation}>\n  </soap:Body>\n</soap:Envelope>`,
    callHeaders: (g, operation) => ({ "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${soapAction(g, operation)}"` }),
    failures: "Failures are SOAP Faults (HTTP 500 unless HTTP itself refused the request).",
  },
});
