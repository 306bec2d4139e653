import { describe, expect, it } from "vitest";
import { SplicedJson, type SharedRun } from "./spliced-json.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("SplicedJson", () => {
  it("encodes to the UTF-8 of its text, non-ASCII on either side of a splice included", () => {
    const run: SharedRun = { json: '{"name":"Zoë"},{"name":"陳"}' };
    for (const [head, tail] of [
      ['{"data":[', '],"total":2}'],
      ['{"é":[', '],"next":"✓"}'],
      ["[", "]"],
    ]) {
      const body = new SplicedJson(head, run, tail);
      expect(decode(body.bytes())).toBe(body.text);
      expect(body.bytes()).toEqual(new TextEncoder().encode(`${head}${run.json}${tail}`));
    }
  });

  it("hands back the same bytes for the same ends, and new bytes when an end changes", () => {
    const run: SharedRun = { json: '{"id":1},{"id":2}' };
    const first = new SplicedJson('{"data":[', run, '],"next":"c1"}').bytes();
    const again = new SplicedJson('{"data":[', run, '],"next":"c1"}').bytes();
    expect(again).toBe(first);
    const moved = new SplicedJson('{"data":[', run, '],"next":"c22"}').bytes();
    expect(moved).not.toBe(first);
    expect(decode(moved)).toBe('{"data":[{"id":1},{"id":2}],"next":"c22"}');
    // The earlier body is untouched by the new one.
    expect(decode(first)).toBe('{"data":[{"id":1},{"id":2}],"next":"c1"}');
  });

  it("does not carry bytes from one run to another with the same ends", () => {
    const a = new SplicedJson("[", { json: '"a"' }, "]").bytes();
    const b = new SplicedJson("[", { json: '"b"' }, "]").bytes();
    expect(decode(a)).toBe('["a"]');
    expect(decode(b)).toBe('["b"]');
  });
});
