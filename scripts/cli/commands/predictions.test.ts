import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MODEL_LABEL, PREDICTION_PATCH_MAX_BYTES } from "../../../evidence/prediction.ts";
import { projectRoot } from "../../farm/paths.ts";
import { readPredictionsFile, readPredictionsFolder } from "./predictions.ts";

const root = () => mkdtempSync(join(tmpdir(), "wb-predictions-"));
const line = (task: string, model: string, patch = "") => JSON.stringify({ task, model, patch });

describe("readPredictionsFile", () => {
  it("reads each line alone: malformed ones are reported by number, the rest kept", async () => {
    const file = join(root(), "p.jsonl");
    writeFileSync(
      file,
      [
        line("task-0001", "a"),
        "",
        "[1, 2",
        JSON.stringify({ task: "task-0001", model: "a", patch: "", verdict: { score: 100 } }),
        line("task-0004", "a", "x".repeat(8 * 1024 ** 2 + 1)),
        line("task-0004", "a"),
        "\r",
      ].join("\n"),
    );
    const r = await readPredictionsFile(file);
    expect(r.items.map((i) => [i.source, i.prediction.task])).toEqual([
      ["line 1", "task-0001"],
      ["line 6", "task-0004"],
    ]);
    expect(r.problems).toEqual([
      { source: "line 3", message: expect.stringMatching(/^not JSON: /) },
      { source: "line 4", message: expect.stringMatching(/Unrecognized key: "verdict"/) },
      { source: "line 5", message: "patch: a patch is at most 8388608 bytes" },
    ]);
  });

  it("refuses every line of a (task, model) pair given twice, and keeps the same task for another model", async () => {
    const file = join(root(), "p.jsonl");
    writeFileSync(file, [line("task-0001", "a", "1"), line("task-0001", "b"), line("task-0001", "a", "2"), line("task-0004", "x/y"), line("task-0004", "x@y")].join("\n"));
    const r = await readPredictionsFile(file);
    expect(r.items.map((i) => i.prediction.model)).toEqual(["b"]);
    // x/y and x@y would write the same bundle (task-0004--external--x_y--s...): a duplicate too.
    expect(r.problems.map((p) => p.source)).toEqual(["line 1", "line 3", "line 4", "line 5"]);
    expect(r.problems[0].message).toBe("task-0001 for model a is given 2 times (line 1, line 3); a (task, model) pair may appear once, so none of them is graded");
  });
});

describe("readPredictionsFolder", () => {
  it("reads <task>.diff regular files under the folder's model, and reports everything else by name", () => {
    const base = root();
    const dir = join(base, "agent-x");
    mkdirSync(dir);
    writeFileSync(join(dir, "task-0001.diff"), "diff --git a/x b/x\n");
    writeFileSync(join(dir, "notes.txt"), "hi");
    writeFileSync(join(base, "secret.diff"), "host file");
    symlinkSync(join(base, "secret.diff"), join(dir, "task-0004.diff"));
    writeFileSync(join(dir, "task-0002.diff"), Buffer.from([0xff, 0xfe, 0x00]));
    mkdirSync(join(dir, "task-0005.diff"));
    writeFileSync(join(dir, "task-9999.diff"), "");
    const r = readPredictionsFolder(dir);
    expect(r.items).toEqual([{ source: "task-0001.diff", prediction: { task: "task-0001", model: "agent-x", patch: "diff --git a/x b/x\n" } }]);
    expect(r.problems).toEqual([
      { source: "notes.txt", message: "not a <task>.diff file (task-NNNN.diff)" },
      { source: "task-0002.diff", message: expect.stringMatching(/^not UTF-8 text/) },
      { source: "task-0004.diff", message: "a symbolic link, not a regular file" },
      { source: "task-0005.diff", message: "not a regular file" },
      { source: "task-9999.diff", message: 'unknown task "task-9999"' },
    ]);
    expect(readPredictionsFolder(dir, "other-model").items[0].prediction.model).toBe("other-model");
  });

  it("needs a valid model label", () => {
    const dir = join(root(), "has space");
    mkdirSync(dir);
    expect(() => readPredictionsFolder(dir)).toThrow(/model label "has space" is not valid/);
  });
});

describe("docs/submissions.md", () => {
  it("quotes the schema's model label and patch cap as the code has them", () => {
    const doc = readFileSync(join(projectRoot(), "docs", "submissions.md"), "utf8");
    expect(doc).toContain(`model: z.string().regex(/${MODEL_LABEL.source}/)`);
    expect(PREDICTION_PATCH_MAX_BYTES).toBe(8 * 1024 ** 2);
    expect(doc).toContain("at most 8 MiB of UTF-8");
  });
});
