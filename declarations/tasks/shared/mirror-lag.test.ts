import { describe, expect, it } from "vitest";
import type { MirrorRow } from "./judging.ts";
import { type LagInput, recordsBehind } from "./mirror-lag.ts";

const row = (id: string, at: string, data: Record<string, unknown> = {}, deleted = false): MirrorRow => ({ source_id: id, data, updated_at: at, is_deleted: deleted });
const byId = (...rows: MirrorRow[]) => new Map(rows.map((r) => [r.source_id as string, r]));

describe("recordsBehind", () => {
  const old = byId(row("c1", "t1", { n: 1 }), row("c2", "t1", { n: 2 }));
  const want = byId(row("c1", "t2", { n: 10 }), row("c2", "t1", { n: 2 }), row("c3", "t2", { n: 3 }));
  const input = (rows: MirrorRow[]) => (): LagInput => ({ rows, want, old });

  it("sets aside records still at their old version or not there yet, and passes the rest", () => {
    const got = recordsBehind(["candidate"], input([row("c1", "t1", { n: 1 }), row("c2", "t1", { n: 2 })]));
    expect([...got.behind]).toEqual([
      ["c1", "candidate"],
      ["c3", "candidate"],
    ]);
    expect(got.problems).toEqual([]);
  });

  it("reports a record at neither version as wrong, per entity, and sets nothing aside for it", () => {
    const got = recordsBehind(["candidate", "application"], (entity) =>
      entity === "candidate" ? input([row("c1", "t9", { n: 99 }), row("c2", "t1", { n: 2 }), row("c3", "t2", { n: 3 })])() : { rows: [], want: new Map(), old: new Map() },
    );
    expect([...got.behind]).toEqual([]);
    expect(got.problems).toHaveLength(1);
    expect(got.problems[0]).toMatch(/^candidates: .*c1/);
  });

  it("sets aside nothing when the mirror is up to date", () => {
    expect(recordsBehind(["candidate"], input([...want.values()]))).toEqual({ behind: new Map(), problems: [] });
  });
});
