import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OutputsSchema, csvRows, jsonDocument, jsonLines, jsonRows } from "../../declarations/schema/output-contract.ts";
import { readOutput } from "./output-file.ts";
import { readByContract } from "./output-format.ts";

const Row = z.looseObject({ id: z.string(), n: z.number() });

function fileIn(name: string, text: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "wb-format-")), "output");
  mkdirSync(dir);
  writeFileSync(join(dir, name), text);
  return dir;
}

describe("reading an output by its declared format", () => {
  it("reads a JSON array of rows, JSON Lines and a document", () => {
    expect(readByContract("a.json", jsonRows(Row), '[{"id":"x","n":1}]')).toEqual({ ok: true, value: [{ id: "x", n: 1 }] });
    expect(readByContract("a.jsonl", jsonLines(Row), '{"id":"x","n":1}\r\n{"id":"y","n":2}\n')).toEqual({
      ok: true,
      value: [
        { id: "x", n: 1 },
        { id: "y", n: 2 },
      ],
    });
    expect(readByContract("a.jsonl", jsonLines(Row), "")).toEqual({ ok: true, value: [] });
    expect(readByContract("r.json", jsonDocument(z.object({ total: z.number() })), '{"total":3}')).toEqual({ ok: true, value: { total: 3 } });
  });

  it("names the file, the format and the parser's message when JSON Lines stand where JSON is declared", () => {
    const r = readByContract("a.json", jsonRows(Row), '{"id":"x","n":1}\n{"id":"y","n":2}\n');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^a\.json is not JSON \(one array of rows\): Unexpected non-whitespace character after JSON.*this is JSON Lines, not one JSON value$/);
  });

  it("refuses a JSON value that is not an array where rows are declared, and a JSON array where JSON Lines are", () => {
    expect(readByContract("a.json", jsonRows(Row), '{"id":"x","n":1}')).toEqual({ ok: false, error: "a.json is not JSON (one array of rows): the file holds a JSON object, not an array of rows" });
    expect(readByContract("a.jsonl", jsonLines(Row), '{"id":"x","n":1}\n[{"id":"y","n":2}]\n')).toEqual({
      ok: false,
      error: "a.jsonl (JSON Lines (one JSON value per line)): row 2 does not match the row schema: Invalid input: expected object, received array",
    });
    expect(readByContract("a.jsonl", jsonLines(Row), '{"id":"x","n":1}\n{"id":\n')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^a\.jsonl is not JSON Lines \(one JSON value per line\): line 2: /),
    });
  });

  it("names the first row that fails the schema and where", () => {
    expect(readByContract("a.json", jsonRows(Row), '[{"id":"x","n":1},{"id":7,"n":2}]')).toEqual({
      ok: false,
      error: "a.json (JSON (one array of rows)): row 2 does not match the row schema: id: Invalid input: expected string, received number",
    });
    expect(readByContract("r.json", jsonDocument(z.object({ total: z.number() })), "[]")).toMatchObject({ ok: false, error: expect.stringContaining("the document does not match its schema") });
  });

  it("reads CSV through a real parser: quoted delimiters, quotes and newlines, rows keyed by the declared header", () => {
    const c = csvRows(["id", "note"], z.object({ id: z.string().regex(/^\d+$/), note: z.string() }));
    expect(readByContract("n.csv", c, 'id,note\n1,"a, b"\n2,"say ""hi""\nthen go"\n')).toEqual({
      ok: true,
      value: [
        { id: "1", note: "a, b" },
        { id: "2", note: 'say "hi"\nthen go' },
      ],
    });
    expect(readByContract("n.csv", c, "\uFEFFid,note\r\n3,x\r\n")).toEqual({ ok: true, value: [{ id: "3", note: "x" }] });
  });

  it("refuses CSV with a record of the wrong length, a header other than the declared one, or a row the schema refuses", () => {
    const c = csvRows(["id", "note"], z.object({ id: z.string().regex(/^\d+$/), note: z.string() }));
    expect(readByContract("n.csv", c, "id,note\n1,a,extra\n")).toMatchObject({ ok: false, error: expect.stringMatching(/^n\.csv is not CSV with the header id,note: Invalid Record Length/) });
    expect(readByContract("n.csv", c, "note,id\na,1\n")).toEqual({ ok: false, error: 'n.csv is not CSV with the header id,note: the first record is "note,id", not the header "id,note"' });
    expect(readByContract("n.csv", c, "id,note\nx,a\n")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^n\.csv \(CSV with the header id,note\): row 1 does not match the row schema: id: /),
    });
  });

  it("is what the harness's safe reader applies to a file it found", () => {
    expect(readOutput(fileIn("a.json", '{"id":"x","n":1}\n{"id":"y","n":2}\n'), "a.json", jsonRows(Row))).toMatchObject({
      present: true,
      parsed: false,
      error: expect.stringContaining("this is JSON Lines"),
    });
    expect(readOutput(fileIn("a.jsonl", '{"id":"x","n":1}\n'), "a.jsonl", jsonLines(Row))).toEqual({ present: true, parsed: true, value: [{ id: "x", n: 1 }] });
  });
});

describe("declaring outputs", () => {
  it("accepts .json, .jsonl and .csv outputs whose names end in their format", () => {
    expect(OutputsSchema.safeParse({ "a.json": jsonRows(Row), "b.jsonl": jsonLines(Row), "c.csv": csvRows(["id"], Row), "r.json": jsonDocument(Row) }).success).toBe(true);
  });

  it("refuses a name that does not match its format, an empty declaration and a repeated CSV column", () => {
    const wrong = OutputsSchema.safeParse({ "candidates.json": jsonLines(Row) });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0].message).toBe("candidates.json is declared jsonl; its name must end in .jsonl");
    expect(OutputsSchema.safeParse({}).success).toBe(false);
    expect(OutputsSchema.safeParse({ "c.csv": csvRows(["id", "id"], Row) }).success).toBe(false);
    expect(OutputsSchema.safeParse({ "c.txt": jsonRows(Row) }).success).toBe(false);
  });
});
