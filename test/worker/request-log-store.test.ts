import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LogStore } from "../../workers/engine/store/logs.ts";
import { req } from "../node/grading/log-fixtures.ts";
import type { RequestLogEntry } from "../../declarations/evidence/logs.ts";
import { migrateWorld } from "../../workers/world/schema.ts";

/** A row with an explicit sequence number and a path that names it. */
const entry = (seq: number, over: Partial<RequestLogEntry> = {}): RequestLogEntry => req({ seq, ts: seq, path: `/r/${seq}`, ...over });

/** Real SQLite storage whose request inserts fail for the rows `fails` picks (the first argument is the seq). */
function failing(sql: SqlStorage, fails: (seq: number, attempt: number) => boolean): SqlStorage {
  const attempts = new Map<number, number>();
  return {
    exec(query: string, ...args: SqlStorageValue[]) {
      if (query.trimStart().startsWith("INSERT INTO requests")) {
        const seq = args[0] as number;
        const n = (attempts.get(seq) ?? 0) + 1;
        attempts.set(seq, n);
        if (fails(seq, n)) throw new Error("SQLITE_TOOBIG: string or blob too big");
      }
      return sql.exec(query, ...args);
    },
  } as SqlStorage;
}

describe("request log store", () => {
  it("stores a stand-in for a row the storage refuses, and loses no other row of the batch", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-standin"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(failing(state.storage.sql, (seq, attempt) => seq === 3 && attempt === 1));
      for (let i = 1; i <= 6; i++) expect(logs.appendRequest(entry(logs.allocateRequestSeq(), { method: i === 3 ? "POST" : "GET" }))).toBe(true);
      const rows = logs.requests(0);
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(rows[2]).toMatchObject({ method: "POST", path: "/r/3", logError: "Error: SQLITE_TOOBIG: string or blob too big" });
      expect(rows.filter((r) => r.logError)).toHaveLength(1);
      expect(logs.unlogged(0)).toBe(0);
    });
  });

  it("counts a request whose stand-in is refused too, persistently, without dropping the rows after it", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-lost"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(failing(state.storage.sql, (seq) => seq === 2));
      for (let i = 1; i <= 4; i++) logs.appendRequest(entry(logs.allocateRequestSeq()));
      expect(logs.requests(0).map((r) => r.seq)).toEqual([1, 3, 4]);
      expect(logs.unlogged(0)).toBe(1);
      expect(new LogStore(state.storage.sql).unlogged(0)).toBe(1);
    });
  });

  it("queues a 500 stand-in for a row that cannot be encoded, and tells the caller", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-encode"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(state.storage.sql);
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      expect(logs.appendRequest(entry(logs.allocateRequestSeq(), { body: cyclic }))).toBe(false);
      const [row] = logs.requests(0);
      expect(row.status).toBe(500);
      expect(row.logError).toMatch(/circular|cyclic/i);
    });
  });

  it("reads back rows stored before bodies were bounded, too deep to hand on, as text", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-legacy"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const deep = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
      state.storage.sql.exec(
        "INSERT INTO requests (seq, epoch, ts, method, path, query, headers, body, status, auth_outcome, rate_limited, faults, lies) VALUES (1, 0, 1, 'POST', '/x', '{}', '{}', ?, 401, 'missing', 0, '[]', '[]')",
        deep,
      );
      const [row] = new LogStore(state.storage.sql).requests(0);
      expect(row.bodyNote).toBe("too_deep");
      expect(JSON.stringify(row).length).toBeGreaterThan(deep.length);
    });
  });
});
