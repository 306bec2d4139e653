import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { migrateWorld, WORLD_MIGRATIONS, worldSchemaExists } from "../../workers/world/schema.ts";

const columns = (sql: SqlStorage, table: string) =>
  sql
    .exec(`PRAGMA table_info(${table})`)
    .toArray()
    .map((r) => r.name as string);

describe("world object schema migrations", () => {
  it("set up a new object once, and run nothing the second time", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/migrate-new"));
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      expect(worldSchemaExists(sql)).toBe(false);
      migrateWorld(sql);
      migrateWorld(sql);
      expect(
        sql
          .exec("SELECT version FROM schema_migrations ORDER BY version")
          .toArray()
          .map((r) => r.version),
      ).toEqual(WORLD_MIGRATIONS.map((m) => m.version));
      expect(columns(sql, "requests")).toEqual(expect.arrayContaining(["body_bytes", "body_note", "body_sha256", "log_error"]));
      expect(worldSchemaExists(sql)).toBe(true);
    });
  });

  it("bring an object made before the migrations were numbered up to date, keeping its rows", async () => {
    const stub = env.WORLD.get(env.WORLD.idFromName("unit/migrate-old"));
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      // The tables as an early release made them: no body columns, no delivery acks.
      sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      sql.exec(
        "CREATE TABLE requests (seq INTEGER PRIMARY KEY, epoch INTEGER NOT NULL, ts REAL NOT NULL, method TEXT NOT NULL, path TEXT NOT NULL, query TEXT NOT NULL, headers TEXT NOT NULL, body TEXT, status INTEGER NOT NULL, auth_outcome TEXT NOT NULL, rate_limited INTEGER NOT NULL, retry_after INTEGER, idempotency_key TEXT, faults TEXT NOT NULL, lies TEXT NOT NULL)",
      );
      sql.exec(
        "CREATE TABLE deliveries (seq INTEGER PRIMARY KEY AUTOINCREMENT, epoch INTEGER NOT NULL, ts REAL NOT NULL, event_id TEXT NOT NULL, attempt INTEGER NOT NULL, target TEXT NOT NULL, response_code INTEGER, tampered INTEGER NOT NULL, skew_s INTEGER NOT NULL, duplicate INTEGER NOT NULL, via TEXT NOT NULL)",
      );
      sql.exec("INSERT INTO requests VALUES (1, 0, 1, 'GET', '/x', '{}', '{}', NULL, 200, 'ok', 0, NULL, NULL, '[]', '[]')");
      migrateWorld(sql);
      expect(columns(sql, "deliveries")).toContain("acked");
      expect(columns(sql, "requests")).toContain("body_sha256");
      expect(sql.exec("SELECT seq, body_bytes FROM requests").toArray()).toEqual([{ seq: 1, body_bytes: 0 }]);
      expect(columns(sql, "request_segments")).toEqual(["id", "max_seq", "epoch", "faults", "rows"]);
    });
  });
});
