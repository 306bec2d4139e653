import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { BRIDGE } from "./task.ts";

const WIDTH: Record<string, number> = { app: 5, plc: 6 };

/** An id as the systems spell it: lower case, no padding spaces, digits zero-filled to the vendor's width. */
function canonical(id: string): string {
  const m = /^(app|plc)_(\d+)$/.exec(id.trim().toLowerCase());
  if (!m) throw new Error(`not an application or placement id: ${JSON.stringify(id)}`);
  return `${m[1]}_${m[2].padStart(WIDTH[m[1]], "0")}`;
}

describe("task-0024's answer key", () => {
  const records: Record<string, string>[] = parse(readFileSync(join(import.meta.dirname, "repo", "input", "bridge.csv"), "utf8"), { columns: true });

  it("holds every link of the bridge sheet the agent gets once, each id as the systems spell it", () => {
    const links = records.map((r) => ({ application_id: canonical(r.application_id), placement_id: canonical(r.placement_id) }));
    const once = links.filter((l, i) => links.findIndex((o) => o.application_id === l.application_id && o.placement_id === l.placement_id) === i);
    expect(BRIDGE).toEqual(once);
  });

  it("spells some ids the way a hand-kept sheet does and lists a link twice (the trap the roster must see through)", () => {
    const raw = records.flatMap((r) => [r.application_id, r.placement_id]);
    expect(raw.filter((id) => id !== canonical(id)).length).toBeGreaterThanOrEqual(5);
    expect(records.length).toBeGreaterThan(BRIDGE.length);
  });
});
