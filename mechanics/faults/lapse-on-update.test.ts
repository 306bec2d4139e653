import { describe, expect, it } from "vitest";
import { json } from "../kit/reply.ts";
import type { FaultScope } from "./define.ts";
import { lapseOnUpdate } from "./lapse-on-update.ts";

const fault = lapseOnUpdate.schema.parse({
  kind: "lapse-on-update",
  id: "lapse",
  write: "confirmAssignment",
  field: "status",
  from: "offered",
  to: "expired",
  olderThan: { field: "created_at", at: "2023-11-01T00:00:00Z" },
  code: "offer_expired",
  message: "the offer lapsed",
});

function scope(): FaultScope {
  const memos = new Map<string, unknown>();
  return {
    memo: <T>(id: string, init: () => T): T => {
      if (!memos.has(id)) memos.set(id, init());
      return memos.get(id) as T;
    },
    error: (status: number, code: string) => json(status, { code }),
  } as unknown as FaultScope;
}

const OLD = Date.parse("2023-01-06T02:04:47Z");
const NEW = Date.parse("2023-11-06T11:00:05Z");

describe("the lapse-on-update fault", () => {
  it("lapses the first old record at `from` that the write touches, then refuses every write on a lapsed record", () => {
    const s = scope();
    const call = (record: Record<string, unknown>, write = "confirmAssignment") => lapseOnUpdate.hooks.beforeUpdate!(fault, s, { write, resource: "assignment", id: "1", record });
    // Another write, a record at another status and an offer made this week pass untouched.
    expect(call({ status: "offered", created_at: OLD }, "updateWorker")).toBeNull();
    expect(call({ status: "confirmed", created_at: OLD })).toBeNull();
    expect(call({ status: "offered", created_at: NEW })).toBeNull();
    expect(call({ status: "offered", created_at: "2023-11-06T11:00:05Z" })).toBeNull();
    // The first old offer lapses: its status moves, and the call is refused.
    expect(call({ status: "offered", created_at: OLD })).toEqual({ reply: json(409, { code: "offer_expired" }), set: { status: "expired" } });
    // A second old offer is left alone (nth 1), and the lapsed one stays refused.
    expect(call({ status: "offered", created_at: "2023-02-01T00:00:00Z" })).toBeNull();
    expect(call({ status: "expired", created_at: OLD })).toEqual({ reply: json(409, { code: "offer_expired" }) });
  });

  it("refuses a declaration whose write or fields the vendor does not have", () => {
    const issues: string[] = [];
    lapseOnUpdate.check!(
      { ...fault, write: "nope", olderThan: { field: "born_at", at: "2023-01-01T00:00:00Z" } },
      { writes: [{ name: "confirmAssignment" }], resources: [{ name: "assignment", fields: [{ name: "status" }, { name: "created_at" }] }] },
      (path, message) => issues.push(`${path.join(".")}: ${message}`),
    );
    expect(issues).toEqual(['write: unknown write "nope"', 'olderThan.field: no resource has a field "born_at"']);
  });
});
