import { describe, expect, it } from "vitest";
import { boundaryOf, isFormData, MAX_PARTS, parseMultipart } from "./multipart.ts";

const enc = new TextEncoder();
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe("multipart/form-data reader", () => {
  it("reads fields and files, keeping a file's bytes exactly (CRLF and non-UTF-8 bytes included)", () => {
    const file = new Uint8Array([0x25, 0x50, 0x0d, 0x0a, 0xff, 0x00, 0x2d, 0x2d, 0x0d]);
    const body = new Uint8Array([
      ...enc.encode('preamble\r\n--xyz\r\nContent-Disposition: form-data; name="kind"\r\n\r\nresume\r\n--xyz\r\n'),
      ...enc.encode('Content-Disposition: form-data; name="file"; filename="a \\"b\\".pdf"\r\nContent-Type: application/pdf\r\n\r\n'),
      ...file,
      ...enc.encode("\r\n--xyz--\r\nepilogue"),
    ]);
    const read = parseMultipart(body, "xyz");
    if ("error" in read) throw new Error(read.error);
    expect(read.parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ["kind", null, null],
      ["file", 'a "b".pdf', "application/pdf"],
    ]);
    expect(text(read.parts[0].bytes)).toBe("resume");
    expect([...read.parts[1].bytes]).toEqual([...file]);
  });

  it("reads RFC 5987 filenames and the boundary parameter", () => {
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(boundaryOf("multipart/form-data; charset=utf-8; boundary=----x1")).toBe("----x1");
    expect(boundaryOf("multipart/form-data")).toBeNull();
    expect(isFormData("Multipart/Form-Data; boundary=x")).toBe(true);
    expect(isFormData("multipart/mixed; boundary=x")).toBe(false);
    const body = enc.encode('--b\r\nContent-Disposition: form-data; name="f"; filename="x"; filename*=UTF-8\'\'M%C3%BCller.txt\r\n\r\nhi\r\n--b--\r\n');
    const read = parseMultipart(body, "b");
    expect("parts" in read && read.parts[0].filename).toBe("Müller.txt");
  });

  it("says what is wrong with a broken body, and bounds the parts", () => {
    expect(parseMultipart(enc.encode("no boundary here"), "b")).toEqual({ error: 'the body holds no boundary "b"' });
    expect(parseMultipart(enc.encode('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nunterminated'), "b")).toEqual({ error: "the body ends before its closing boundary" });
    expect(parseMultipart(enc.encode("--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--"), "b")).toEqual({ error: "every part needs a Content-Disposition of form-data" });
    expect(parseMultipart(enc.encode("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--"), "b")).toEqual({ error: "a part's Content-Disposition has no name" });
    const many = `${Array.from({ length: MAX_PARTS + 1 }, (_, i) => `--b\r\nContent-Disposition: form-data; name="p${i}"\r\n\r\n${i}\r\n`).join("")}--b--\r\n`;
    expect(parseMultipart(enc.encode(many), "b")).toEqual({ error: `a form may have at most ${MAX_PARTS} parts` });
  });
});
