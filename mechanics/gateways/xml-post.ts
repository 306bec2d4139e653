/**
 * @module gateways/xml-post
 * XML over POST, the RPC dialect older screening and staffing systems speak:
 * `<Request operation="...">` with one element per parameter, answered by
 * `<Response operation="..." status="ok|error">`. Failures come back inside a
 * `200` (`status="error"` and an `<Error code="...">`); only refusals HTTP
 * itself gives (size, media type, rate, outage) use another status.
 */
import { z } from "zod";
import { text } from "../kit/reply.ts";
import { mediaTypeEssence } from "../kit/media-type.ts";
import { defineGateway, gatewayCommon } from "./define.ts";
import { readXml, simpleParams, toXmlValue, writeXml } from "./xml.ts";
import { escapeXml, paramElements } from "./xml-text.ts";

const TRANSPORT_STATUSES = new Set([413, 415, 429, 503]);

const schema = z.object({ style: z.literal("xml-post"), ...gatewayCommon });

export const xmlPostGateway = defineGateway({
  schema,
  parse(g, req) {
    const type = mediaTypeEssence(req.headers.get("content-type"));
    if (type !== "application/xml" && type !== "text/xml") return { ok: false, refusal: { status: 415, code: "unsupported_media_type", message: "send the request as application/xml" } };
    const read = readXml(req.rawBody);
    if (!read.ok) return { ok: false, refusal: { status: read.tooLarge ? 413 : 400, code: read.tooLarge ? "request_too_large" : "malformed_request", message: read.message } };
    const root = read.doc.Request;
    if (!root || typeof root !== "object" || Array.isArray(root)) return { ok: false, refusal: { status: 400, code: "malformed_request", message: "the document element must be <Request>" } };
    const operation = (root as Record<string, unknown>)["@_operation"];
    if (typeof operation !== "string" || operation === "") return { ok: false, refusal: { status: 400, code: "malformed_request", message: "<Request> needs an operation attribute" } };
    if (!g.operations.some((o) => o.name === operation)) return { ok: false, refusal: { status: 400, code: "unknown_operation", message: `${g.service} has no operation ${operation}` } };
    const params = simpleParams(root);
    if (!params.ok) return { ok: false, refusal: { status: 400, code: "malformed_request", message: params.message } };
    return { ok: true, call: { operation, params: params.params } };
  },
  render(g, operation, meaning, itemTag, headers) {
    const xml = "application/xml; charset=utf-8";
    const attrs = { "@_xmlns": g.namespace, "@_xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance", ...(operation ? { "@_operation": operation } : {}) };
    if (meaning.ok) return text(200, writeXml({ Response: { ...attrs, "@_status": "ok", ...(toXmlValue(meaning.body, itemTag) as Record<string, unknown>) } }), xml, headers);
    const error = { "@_code": meaning.code, message: meaning.message, ...(toXmlValue(meaning.detail, itemTag) as Record<string, unknown>) };
    return text(TRANSPORT_STATUSES.has(meaning.status) ? meaning.status : 200, writeXml({ Response: { ...attrs, "@_status": "error", Error: error } }), xml, headers);
  },
  docs: {
    label: "XML over POST, errors in a 200",
    overview: (g) => [
      `Every call is an XML document POSTed to \`${g.path}\` with \`Content-Type: application/xml\`: a \`<Request operation="...">\` element (namespace \`${g.namespace}\`) holding one element per parameter.`,
      "",
      'The answer is a `<Response operation="..." status="ok">` holding the result. A failed call also answers `200`: `status="error"` and an `<Error code="...">` with a `<message>`. Check `status` on every response. Only an oversized body (`413`), a wrong media type (`415`), rate limiting (`429`) and outages (`503`) use another HTTP status.',
    ],
    exampleRequest: (g, operation, params) =>
      `<?xml version="1.0" encoding="utf-8"?>\n<Request xmlns="${escapeXml(g.namespace)}" operation="${operation}">\n${paramElements(params, "  ")}\n</Request>`,
    callHeaders: () => ({ "Content-Type": "application/xml; charset=utf-8" }),
    failures: 'Failures answer 200 with status="error" inside the body.',
  },
});
