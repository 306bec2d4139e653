/**
 * @module gateways/xml-scan
 * The pass over a request document's characters that runs before any parser
 * sees it: how deep its elements nest, how many elements and attributes it
 * has, and its document element's start tag. Comments, CDATA sections and
 * processing instructions are skipped whole, and quoted attribute values are
 * read as values, so markup characters inside them count for nothing. It
 * stops at the first bound crossed, so a hostile document costs one partial
 * pass over its characters, never a parse.
 */

/** What a document may hold before it is refused unparsed. */
export interface XmlBounds {
  depth: number;
  elements: number;
  attributes: number;
}

/** The document element as its start tag writes it: qualified name and the namespaces it declares (`""` the default one). */
export interface XmlRoot {
  prefix: string;
  local: string;
  namespaces: Record<string, string>;
}

export type XmlScan = { ok: true; root: XmlRoot | null } | { ok: false; crossed: keyof XmlBounds };

/** Where a section that is not markup ends, by how it opens. */
const SKIPPED: [string, string][] = [
  ["<!--", "-->"],
  ["<![CDATA[", "]]>"],
  ["<?", "?>"],
  ["<!", ">"],
];

/** The end of a start or end tag that begins at `from`: the `>` outside quoted values, or -1. */
function tagEnd(text: string, from: number): number {
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 /* " */ || c === 39 /* ' */) quote = c;
    else if (c === 62 /* > */) return i;
  }
  return -1;
}

/** Attributes of a start tag (`=` signs outside quoted values). */
function attributeCount(tag: string): number {
  let n = 0;
  let quote = 0;
  for (let i = 0; i < tag.length; i++) {
    const c = tag.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 61 /* = */) n++;
  }
  return n;
}

/** The name and namespace declarations of the document element's start tag (`<` and `>` excluded). */
function readRoot(tag: string): XmlRoot {
  const name = /^[^\s/>]+/.exec(tag)?.[0] ?? "";
  const colon = name.indexOf(":");
  const namespaces: Record<string, string> = {};
  for (const m of tag.slice(name.length).matchAll(/\s(xmlns(?::([^\s=]+))?)\s*=\s*("([^"]*)"|'([^']*)')/g)) namespaces[m[2] ?? ""] = m[4] ?? m[5] ?? "";
  return { prefix: colon === -1 ? "" : name.slice(0, colon), local: colon === -1 ? name : name.slice(colon + 1), namespaces };
}

/** Scans a document against its bounds; the first bound crossed refuses it. Malformed markup is left for the parser to name. */
export function scanXml(text: string, bounds: XmlBounds): XmlScan {
  let depth = 0;
  let elements = 0;
  let attributes = 0;
  let root: XmlRoot | null = null;
  let i = text.indexOf("<");
  while (i !== -1) {
    const next = text.charCodeAt(i + 1);
    let end: number;
    if (next === 33 /* ! */ || next === 63 /* ? */) {
      const [open, close] = SKIPPED.find(([o]) => text.startsWith(o, i))!;
      const at = text.indexOf(close, i + open.length);
      if (at === -1) break;
      end = at + close.length - 1;
    } else {
      end = tagEnd(text, i + 1);
      if (end === -1) break;
      if (next === 47 /* / */) depth--;
      else {
        const tag = text.slice(i + 1, end);
        elements++;
        if (elements > bounds.elements) return { ok: false, crossed: "elements" };
        attributes += attributeCount(tag);
        if (attributes > bounds.attributes) return { ok: false, crossed: "attributes" };
        root ??= readRoot(tag);
        if (text.charCodeAt(end - 1) !== 47 /* / */) {
          depth++;
          if (depth > bounds.depth) return { ok: false, crossed: "depth" };
        }
      }
    }
    i = text.indexOf("<", end + 1);
  }
  return { ok: true, root };
}
