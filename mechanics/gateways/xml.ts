/**
 * @module gateways/xml
 * Reading and writing the XML the gateway styles speak. A client chooses the
 * body freely, so reading is guarded before the parser sees it: document
 * type declarations (entity expansion) are refused and nesting is bounded by
 * one pass over the characters, like JSON bodies are.
 */
import { XMLBuilder, XMLParser, XMLValidator } from "fast-xml-parser";

/** XML nested deeper than this is refused unparsed. */
export const MAX_XML_DEPTH = 64;

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
});

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: false, format: false });

/** Whether XML text nests elements deeper than `max`, found without parsing. */
export function xmlDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  for (let i = text.indexOf("<"); i !== -1; i = text.indexOf("<", i + 1)) {
    const next = text.charCodeAt(i + 1);
    if (next === 47 /* / */) depth--;
    else if (next !== 33 /* ! */ && next !== 63 /* ? */) {
      const end = text.indexOf(">", i);
      if (end === -1) return false;
      if (text.charCodeAt(end - 1) !== 47) {
        depth++;
        if (depth > max) return true;
      }
      i = end;
    }
  }
  return false;
}

/** Parses a request document, or says in one sentence why it cannot be read. */
export function readXml(text: string): { ok: true; doc: XmlNode } | { ok: false; message: string } {
  if (text.trim() === "") return { ok: false, message: "the request body is empty; an XML document is required" };
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, message: "document type declarations are not accepted" };
  if (xmlDepthExceeds(text, MAX_XML_DEPTH)) return { ok: false, message: `XML nests deeper than ${MAX_XML_DEPTH} elements` };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, message: `malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}` };
  try {
    return { ok: true, doc: parser.parse(text) as XmlNode };
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
