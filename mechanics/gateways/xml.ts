/**
 * @module gateways/xml
 * Reading and writing the XML the gateway styles speak. A client chooses the
 * body freely, so reading is guarded before the parser sees it: document
 * type declarations (entity expansion) are refused, and nesting, elements and
 * attributes are bounded by one pass over the characters (`xml-scan.ts`),
 * like JSON bodies are.
 */
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";
import { type XmlBounds, type XmlRoot, scanXml } from "./xml-scan.ts";

/** XML nested deeper than this is refused unparsed (and the parser holds the same bound). */
export const MAX_XML_DEPTH = 64;
/** Elements and attributes a request document may hold: a gateway call has a few dozen; a 1 MiB body could otherwise cost the parser seconds. */
export const MAX_XML_ELEMENTS = 4096;
export const MAX_XML_ATTRIBUTES = 1024;
const BOUNDS: XmlBounds = { depth: MAX_XML_DEPTH, elements: MAX_XML_ELEMENTS, attributes: MAX_XML_ATTRIBUTES };

/** A parsed element: text under `#text`, attributes under `@_name`, children by local name. */
export type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // The parser counts the element being opened beyond the stack it checks: this refuses what nests deeper than MAX_XML_DEPTH.
  maxNestedTags: MAX_XML_DEPTH - 1,
});

// `suppressBooleanAttributes` is off: an attribute whose value is "true" (`xsi:nil="true"`) must keep its value, or the document is not well-formed XML.
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false, suppressBooleanAttributes: false, format: false });

/** Parses a request document, or says in one sentence why it cannot be read (`tooLarge`: it holds more than the bounds allow). */
export function readXml(text: string): { ok: true; doc: XmlNode; root: XmlRoot | null } | { ok: false; message: string; tooLarge?: true } {
  if (text.trim() === "") return { ok: false, message: "the request body is empty; an XML document is required" };
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, message: "document type declarations are not accepted" };
  const scan = scanXml(text, BOUNDS);
  if (!scan.ok) {
    if (scan.crossed === "depth") return { ok: false, message: `XML nests deeper than ${MAX_XML_DEPTH} elements` };
    return { ok: false, message: `the document has more than ${BOUNDS[scan.crossed]} ${scan.crossed}`, tooLarge: true };
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, message: `malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}` };
  try {
    return { ok: true, doc: parser.parse(text) as XmlNode, root: scan.root };
  } catch (err) {
    return { ok: false, message: `malformed XML: ${(err as Error).message}` };
  }
}

/** The child elements of a node (not its attributes or text). */
export function childElements(node: unknown): [string, unknown][] {
  if (!node || typeof node !== "object") return [];
  return Object.entries(node as XmlNode).filter(([k]) => !k.startsWith("@_") && k !== "#text");
}

/**
 * The parameters of an operation element: each child element's text, by
 * name. A child that repeats or holds elements of its own is refused.
 */
export function simpleParams(node: unknown): { ok: true; params: Record<string, string> } | { ok: false; message: string } {
  const params: Record<string, string> = Object.create(null);
  for (const [name, value] of childElements(node)) {
    if (Array.isArray(value)) return { ok: false, message: `element <${name}> appears more than once` };
    if (value !== null && typeof value === "object") {
      if (childElements(value).length) return { ok: false, message: `element <${name}> must hold text, not elements` };
      const text = (value as XmlNode)["#text"];
      params[name] = text === undefined ? "" : String(text);
    } else params[name] = value === undefined || value === null ? "" : String(value);
  }
  return { ok: true, params };
}

/** A JSON value as builder input: objects become elements, arrays repeated elements, null `xsi:nil`. */
export function toXmlValue(value: unknown, itemTag: (key: string) => string, key = ""): unknown {
  if (value === null || value === undefined) return { "@_xsi:nil": "true" };
  if (Array.isArray(value)) return value.length ? { [itemTag(key)]: value.map((v) => toXmlValue(v, itemTag, itemTag(key))) } : "";
  if (typeof value === "object") {
    const out: XmlNode = {};
    for (const [k, v] of Object.entries(value as XmlNode)) out[xmlName(k)] = toXmlValue(v, itemTag, k);
    return out;
  }
  return String(value);
}

/** A key as an element name: characters XML names cannot hold become `_`. */
function xmlName(key: string): string {
  const name = key.replace(/[^A-Za-z0-9_.-]/g, "_");
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

/** Serialises builder input, with the XML declaration. */
export function writeXml(doc: XmlNode): string {
  return `<?xml version="1.0" encoding="utf-8"?>${builder.build(doc)}`;
}
