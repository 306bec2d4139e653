import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { OTHER_SEEDS } from "../../../scripts/cli/commands/validate.ts";
import { buildState } from "../../../workers/engine/data/generate.ts";
import { VENDORS } from "../../vendors/index.ts";
import { COLUMNS, SIGNUPS } from "./signups.ts";
import task, { canonicalId, SOURCE, SOURCE_CHECKPOINT } from "./task.ts";

describe("task-0041's sign-up file", () => {
  const text = readFileSync(join(import.meta.dirname, "repo", "input", "harbour-signups.csv"), "utf8");
  const records: Record<string, string>[] = parse(text, { columns: true, trim: false });

  it("is the list the judge reads, row for row", () => {
    expect(Object.keys(records[0])).toEqual([...COLUMNS]);
    expect(records).toEqual(SIGNUPS.map((s) => ({ ...s })));
  });

  it("writes ids the ways an agency copies them and names some people twice (the trap the import must see through)", () => {
    const typed = SIGNUPS.map((s) => s.sourcewell_id).filter((id) => id.trim());
    expect(typed.filter((id) => id !== canonicalId(id)).length).toBeGreaterThanOrEqual(4);
    const ids = typed.map(canonicalId);
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(SIGNUPS.filter((s) => !s.sourcewell_id.trim()).length).toBeGreaterThanOrEqual(3);
  });

  it("reads ids the agency's ways and refuses what is no id", () => {
    expect(["tl_00012", " tl_00002 ", "tl_6", "TL-12", "TL_00017", "00030"].map(canonicalId)).toEqual(["tl_00012", "tl_00002", "tl_00006", "tl_00012", "tl_00017", "tl_00030"]);
    expect(canonicalId("")).toBeNull();
    expect(canonicalId("tl_12a")).toBeNull();
  });

  it("lists someone's earlier sign-up below their later one (the file's order is not the order of `signed_up`)", () => {
    const rowsOf = new Map<string, number[]>();
    SIGNUPS.forEach((s, i) => {
      const id = canonicalId(s.sourcewell_id);
      if (id) rowsOf.set(id, [...(rowsOf.get(id) ?? []), i]);
    });
    const lastIsNotLatest = [...rowsOf.values()].filter((rows) => rows.some((i) => SIGNUPS[i].signed_up > SIGNUPS[rows.at(-1)!].signed_up));
    expect(lastIsNotLatest.length).toBeGreaterThanOrEqual(1);
  });

  it("names by id a live profile past Sourcewell's first 100 (lists are served in creation order) on every graded seed: a second page at any page size", () => {
    expect(task.roles[SOURCE].checkpoint).toBe(SOURCE_CHECKPOINT);
    const ids = new Set(SIGNUPS.map((s) => canonicalId(s.sourcewell_id)).filter((id) => id !== null));
    for (const seed of [task.seed, ...OTHER_SEEDS]) {
      const live = buildState(VENDORS.sourcewell, seed, SOURCE_CHECKPOINT)
        .filter((r) => r.entity === "talent" && r.deletedMs === null)
        .sort((a, b) => a.seq - b.seq)
        .map((r) => r.id);
      expect(live.slice(100).filter((id) => ids.has(id)).length, `seed ${seed}`).toBeGreaterThanOrEqual(1);
    }
  });
});
