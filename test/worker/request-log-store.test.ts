import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LogStore, SEGMENT_CHARS } from "../../workers/engine/store/logs.ts";
import { req } from "../node/grading/log-fixtures.ts";
import type { RequestLogEntry } from "../../evidence/logs.ts";
import { migrateWorld } from "../../workers/world/schema.ts";

/** A row with an explicit sequence number and a path that names it. */
const entry = (seq: number, over: Partial<RequestLogEntry> = {}): RequestLogEntry => req({ seq, ts: seq, path: `/r/${seq}`, ...over });

/** Real SQLite storage that refuses the request-log segments `refuses` picks, by the rows they hold. */
function failing(sql: SqlStorage, refuses: (rows: RequestLogEntry[]) => boolean): SqlStorage {
  return {
    exec(query: string, ...args: SqlStorageValue[]) {
      if (query.startsWith("INSERT INTO request_segments") && refuses(JSON.parse(args[args.length - 1] as string))) throw new Error("SQLITE_TOOBIG: string or blob too big");
      return sql.exec(query, ...args);
    },
  } as SqlStorage;
}

/** The stored segments, in the order they were written, with the sequence numbers of their rows. */
const segments = (sql: SqlStorage) =>
  sql
    .exec("SELECT max_seq, epoch, faults, rows FROM request_segments ORDER BY id")
    .toArray()
    .map((r) => ({ max_seq: r.max_seq, epoch: r.epoch, faults: r.faults, seqs: (JSON.parse(r.rows as string) as RequestLogEntry[]).map((e) => e.seq), chars: (r.rows as string).length }));

describe("request log store", () => {
  it("stores a stand-in for a row the storage refuses, and loses no other row of the batch", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-standin"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(failing(state.storage.sql, (rows) => rows.some((r) => r.seq === 3 && !r.logError)));
      for (let i = 1; i <= 6; i++) expect(logs.appendRequest(entry(logs.allocateRequestSeq(), { method: i === 3 ? "POST" : "GET" }))).not.toBeNull();
      const rows = logs.requests(0);
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(rows[2]).toMatchObject({ method: "POST", path: "/r/3", logError: "Error: SQLITE_TOOBIG: string or blob too big" });
      expect(rows.filter((r) => r.logError)).toHaveLength(1);
      expect(logs.unlogged(0)).toBe(0);
      expect(segments(state.storage.sql).map((r) => r.seqs)).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n]));
    });
  });

  it("counts a request whose stand-in is refused too, persistently, without dropping the rows after it", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-lost"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(failing(state.storage.sql, (rows) => rows.some((r) => r.seq === 2)));
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
      expect(logs.appendRequest(entry(logs.allocateRequestSeq(), { body: cyclic }))).toBeNull();
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

  it("stores the rows of one flush as one segment per epoch, and reads rows of the old table with them in order", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-segments"));
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      migrateWorld(sql);
      for (const seq of [1, 2])
        sql.exec(
          "INSERT INTO requests (seq, epoch, ts, method, path, query, headers, body, status, auth_outcome, rate_limited, faults, lies) VALUES (?, 0, ?, 'GET', ?, '{}', '{}', NULL, 200, 'ok', 0, ?, '[]')",
          seq,
          seq,
          `/r/${seq}`,
          seq === 2 ? '["old-fault"]' : "[]",
        );
      const logs = new LogStore(sql);
      const epochs = [0, 0, 1, 1, 0];
      for (const epoch of epochs) logs.appendRequest(entry(logs.allocateRequestSeq(), { epoch, faults: epoch === 1 ? ["outage"] : [] }));
      expect(logs.requests(0).map((r) => r.seq)).toEqual([1, 2, 3, 4, 7]);
      expect(logs.requests(1).map((r) => r.path)).toEqual(["/r/5", "/r/6"]);
      expect(logs.requests().map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(segments(sql).map((r) => [r.seqs, r.max_seq, r.epoch, r.faults])).toEqual([
        [[3, 4], 4, 0, "[]"],
        [[5, 6], 6, 1, '["outage"]'],
        [[7], 7, 0, "[]"],
      ]);
      expect([...logs.faultsFired(0)]).toEqual(["old-fault"]);
      expect([...logs.faultsFired(1)]).toEqual(["outage"]);
      expect(new LogStore(sql).nextRequestSeq()).toBe(8);
    });
  });

  it("hands back a segment's rows exactly as they were appended", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-roundtrip"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(state.storage.sql);
      const rows = [
        entry(logs.allocateRequestSeq(), {
          method: "POST",
          query: { a: "1", é: "\ud800" },
          headers: { "x-api-key": "[redacted]" },
          body: { n: 1.5, list: [null, "x"] },
          idempotencyKey: "k-1",
          ts: 1764640000.123,
        }),
        entry(logs.allocateRequestSeq(), { status: 429, rateLimited: true, retryAfter: 7, bodyNote: "truncated", bodySha256: "ab", bodyBytes: 9, body: "text", lies: ["l1"] }),
      ];
      for (const r of rows) logs.appendRequest(r);
      expect(logs.requests(0)).toEqual(rows);
    });
  });

  it("starts a new segment before one would pass its size, and stores a longer row alone", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-segment-size"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(state.storage.sql);
      const big = "x".repeat(SEGMENT_CHARS / 3);
      for (let i = 0; i < 5; i++) logs.appendRequest(entry(logs.allocateRequestSeq(), { body: big }));
      logs.appendRequest(entry(logs.allocateRequestSeq(), { body: "y".repeat(SEGMENT_CHARS + 1) }));
      logs.flush();
      const stored = segments(state.storage.sql);
      expect(stored.map((r) => r.seqs)).toEqual([[1, 2], [3, 4], [5], [6]]);
      for (const r of stored.slice(0, 3)) expect(r.chars).toBeLessThanOrEqual(SEGMENT_CHARS);
      expect(logs.requests(0).map((r) => (r.body as string).length)).toEqual([...Array(5).fill(big.length), SEGMENT_CHARS + 1]);
    });
  });

  it("hands rows back in arrival order when requests finished in another", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-order"));
    await runInDurableObject(stub, (_obj, state) => {
      migrateWorld(state.storage.sql);
      const logs = new LogStore(state.storage.sql);
      const [slow, fast] = [logs.allocateRequestSeq(), logs.allocateRequestSeq()];
      logs.appendRequest(entry(fast));
      logs.flush();
      logs.appendRequest(entry(slow));
      const later = logs.allocateRequestSeq();
      logs.appendRequest(entry(later));
      expect(logs.requests(0).map((r) => r.seq)).toEqual([slow, fast, later]);
      expect(new LogStore(state.storage.sql).nextRequestSeq()).toBe(later + 1);
    });
  });

  it("writes the rows queued in a turn as one segment before written() resolves, and nothing before", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/log-written"));
    await runInDurableObject(stub, async (_obj, state) => {
      const sql = state.storage.sql;
      migrateWorld(sql);
      const logs = new LogStore(sql);
      const waits = [1, 2, 3].map(() => {
        logs.appendRequest(entry(logs.allocateRequestSeq()));
        return logs.written();
      });
      expect(segments(sql)).toEqual([]);
      let seen: unknown[] = [];
      await Promise.all(waits.map((w) => w.then(() => (seen = segments(sql).map((r) => r.seqs)))));
      expect(seen).toEqual([[1, 2, 3]]);
      logs.appendRequest(entry(logs.allocateRequestSeq()));
      await logs.written();
      expect(segments(sql).map((r) => r.seqs)).toEqual([[1, 2, 3], [4]]);
    });
  });
});
