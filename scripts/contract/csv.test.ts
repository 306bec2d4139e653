import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvFile, csvLine } from "../../workers/engine/protocol/csv.ts";
import { CsvError, parseCsv } from "./csv.ts";

const awkward = fc.string({ unit: fc.constantFrom("a", "Z", " ", ",", ";", '"', "\r", "\n", "é", "\t") });

describe("the contract's CSV reader against the engine's writer", () => {
  it("reads back every field the writer wrote, whatever it holds, for each delimiter, line ending and mark", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(awkward, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(",", ";"),
        fc.constantFrom<"\r\n" | "\n">("\r\n", "\n"),
        fc.boolean(),
        (rows, delimiter, lineEnding, bom) => {
          const width = rows[0].length;
          const even = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
          const [header, ...body] = even;
          const file = csvFile(
            { delimiter, lineEnding, bom },
            header,
            body.map((r) => csvLine(r, delimiter)),
          );
          expect(file.startsWith("\uFEFF")).toBe(bom);
          expect(parseCsv(bom ? file.slice(1) : file, { delimiter, lineEnding })).toEqual(even);
        },
      ),
    );
  });

  it("quotes only what must be quoted, doubling quotes", () => {
    expect(csvLine(["plain", "a,b", 'say "hi"', "two\r\nlines", null, 42, true], ",")).toBe('plain,"a,b","say ""hi""","two\r\nlines",,42,true');
    expect(csvLine(["a,b", "c;d"], ";")).toBe('a,b;"c;d"');
  });

  it("refuses what RFC 4180 does not allow", () => {
    const read = (text: string) => () => parseCsv(text, { delimiter: ",", lineEnding: "\r\n" });
    expect(read('a,b"c\r\n')).toThrow(CsvError);
    expect(read('"open\r\n')).toThrow(/unterminated/);
    expect(read('"a"b\r\n')).toThrow(CsvError);
    expect(read("a,b")).toThrow(/does not end/);
    expect(read("a\nb\r\n")).toThrow(CsvError);
  });
});
