import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { csvRows, jsonLines, jsonRows } from "../../declarations/schema/output-contract.ts";
import { TASKS } from "../../declarations/tasks/index.ts";
import { projectRoot } from "../../scripts/farm/paths.ts";
import { exampleProblem, ticketExamples } from "../../scripts/contract/ticket-examples.ts";

const ticket = (id: string) => readFileSync(join(projectRoot(), "declarations", "tasks", id, "PROBLEM.md"), "utf8");

describe("every ticket's examples of output rows read in the declared format and meet the row schema", () => {
  it.each(Object.keys(TASKS))("%s", (id) => {
    const { outputs } = TASKS[id].task;
    const problems = ticketExamples(ticket(id), outputs).flatMap((ex) => {
      const p = exampleProblem(ex, outputs[ex.file]);
      return p ? [`PROBLEM.md line ${ex.line} (${ex.file}): ${p}`] : [];
    });
    expect(problems).toEqual([]);
  });

  it("finds the report examples of the tickets that once showed JSON Lines under a .json name", () => {
    expect(ticketExamples(ticket("task-0009"), TASKS["task-0009"].task.outputs).map((e) => e.file)).toEqual(["candidates.json", "note_import.json"]);
    expect(ticketExamples(ticket("task-0010"), TASKS["task-0010"].task.outputs).map((e) => e.file)).toEqual(["import_report.json"]);
  });
});

describe("tying a ticket's block to an output", () => {
  const Row = z.looseObject({ id: z.string() });
  const outputs = { "rows.json": jsonRows(Row), "log.jsonl": jsonLines(Row), "list.csv": csvRows(["id", "name"], Row) };
  const md = [
    "Each delivery is a JSON body:",
    "",
    "```json",
    '{ "event": 1 }',
    "```",
    "",
    "- `rows.json`: one row per record:",
    "",
    "  ```json",
    '  { "id": "a" }',
    '  { "id": "b" }',
    "  ```",
    "",
    "The log, then the list (`list.csv`) as",
    "",
    "```csv",
    "id,name",
    'x,"Doe, Jane"',
    "```",
    "",
    "```jsonl log.jsonl",
    '{ "id": "c" }',
    "```",
  ].join("\n");

  it("takes the output the paragraph before it names last, or the one its info string names, and leaves other blocks alone", () => {
    expect(ticketExamples(md, outputs).map((e) => [e.line, e.lang, e.file])).toEqual([
      [9, "json", "rows.json"],
      [16, "csv", "list.csv"],
      [21, "jsonl", "log.jsonl"],
    ]);
    expect(() => ticketExamples("```json other.json\n{}\n```", outputs)).toThrow("names other.json, which is not an output of the task");
  });

  it("fails JSON Lines shown for a JSON output, and passes a whole array, a single row, JSON Lines and CSV", () => {
    const [lines, csv, jsonl] = ticketExamples(md, outputs);
    expect(exampleProblem(lines, outputs["rows.json"])).toMatch(/^it does not read as json: /);
    expect(exampleProblem({ ...lines, text: '[{ "id": "a" }, { "id": "b" }]' }, outputs["rows.json"])).toBeNull();
    expect(exampleProblem({ ...lines, text: '{ "id": "a" }' }, outputs["rows.json"])).toBeNull();
    expect(exampleProblem({ ...lines, text: '{ "id": 1 }' }, outputs["rows.json"])).toBe("row 1 does not match the row schema: id: Invalid input: expected string, received number");
    expect(exampleProblem(csv, outputs["list.csv"])).toBeNull();
    expect(exampleProblem(jsonl, outputs["log.jsonl"])).toBeNull();
    expect(exampleProblem({ ...jsonl, lang: "json" }, outputs["log.jsonl"])).toBe("a ```json block shows log.jsonl, which is declared jsonl");
  });
});
