import { describe, expect, it } from "vitest";
import { XMLValidator } from "fast-xml-parser";
import { MAX_XML_ATTRIBUTES, MAX_XML_DEPTH, MAX_XML_ELEMENTS, readXml, toXmlValue, writeXml } from "./xml.ts";

const nest = (n: number, inside = "") => `${"<a>".repeat(n)}${inside}${"</a>".repeat(n)}`;
/** Closing tags that are not markup: inside a comment, a CDATA section, a processing instruction. */
const HIDDEN = {
  comment: `<!--${"</a>".repeat(40)}-->`,
  cdata: `<![CDATA[${"</a>".repeat(40)}]]>`,
  "processing instruction": `<?pi ${"</a>".repeat(40)}?>`,
};

describe("readXml's bounds", () => {
  it(`parses ${MAX_XML_DEPTH} levels and refuses one more`, () => {
    expect(readXml(nest(MAX_XML_DEPTH)).ok).toBe(true);
    const deeper = readXml(nest(MAX_XML_DEPTH + 1));
    expect(deeper).toEqual({ ok: false, message: `XML nests deeper than ${MAX_XML_DEPTH} elements` });
  });

  it.each(Object.entries(HIDDEN))("does not count closing tags inside a %s", (_where, hidden) => {
    for (const depth of [MAX_XML_DEPTH + 1, 80, 100]) {
      const doc = `<a>${hidden}${nest(depth - 1)}</a>`;
      expect(readXml(doc), `${depth} deep`).toEqual({ ok: false, message: `XML nests deeper than ${MAX_XML_DEPTH} elements` });
    }
    expect(readXml(`<a>${hidden}${nest(MAX_XML_DEPTH - 1)}</a>`).ok).toBe(true);
  });

  it("keeps markup characters inside quoted attribute values out of the count", () => {
    expect(readXml(`<a x="</b></b>" y='<c>'>${nest(MAX_XML_DEPTH - 1)}</a>`).ok).toBe(true);
    expect(readXml(`<a x="/">${nest(MAX_XML_DEPTH)}</a>`).ok).toBe(false);
  });

  it(`refuses more than ${MAX_XML_ATTRIBUTES} attributes quickly, before parsing (1 MiB, 90,000 attributes)`, () => {
    const attrs = Array.from({ length: 90_000 }, (_, i) => `b${i}="1"`).join(" ");
    const doc = `<a ${attrs}/>`;
    const started = performance.now();
    const read = readXml(doc);
    const ms = performance.now() - started;
    expect(read).toEqual({ ok: false, message: `the document has more than ${MAX_XML_ATTRIBUTES} attributes`, tooLarge: true });
    expect(ms).toBeLessThan(250);
    expect(readXml(`<a ${Array.from({ length: MAX_XML_ATTRIBUTES }, (_, i) => `b${i}="1"`).join(" ")}/>`).ok).toBe(true);
  });

  it(`refuses more than ${MAX_XML_ELEMENTS} elements quickly, before parsing`, () => {
    const started = performance.now();
    const read = readXml(`<r>${"<e/>".repeat(250_000)}</r>`);
    expect(performance.now() - started).toBeLessThan(250);
    expect(read).toEqual({ ok: false, message: `the document has more than ${MAX_XML_ELEMENTS} elements`, tooLarge: true });
    expect(readXml(`<r>${"<e/>".repeat(MAX_XML_ELEMENTS - 1)}</r>`).ok).toBe(true);
  });

  it("reads the document element's name and the namespaces it declares", () => {
    const read = readXml(`<?xml version="1.0"?><!-- c --><s:Envelope xmlns:s="urn:one" xmlns='urn:two'><s:Body/></s:Envelope>`);
    expect(read.ok && read.root).toEqual({ prefix: "s", local: "Envelope", namespaces: { s: "urn:one", "": "urn:two" } });
  });
});

describe("writeXml", () => {
  it("writes a null as a well-formed xsi:nil attribute with its value", () => {
    const xml = writeXml({ Response: { "@_xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance", record: toXmlValue({ phone: null, name: "x" }, () => "item") } });
    expect(xml).toContain('<phone xsi:nil="true"></phone>');
    expect(XMLValidator.validate(xml)).toBe(true);
  });
});
