/**
 * @module schema
 * SQLite schema of one (world, role) Durable Object, as numbered migrations:
 * each runs once, in order, and is recorded in `schema_migrations`. An object
 * made by a release before the migrations were numbered has its tables
 * already; the first migration's statements leave them alone and the later
 * ones add only what is missing.
 */

/** The tables (migration 1). */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS records (
     entity TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, parent TEXT,
     data TEXT NOT NULL, updated_ms INTEGER NOT NULL, deleted_ms INTEGER,
     visible_at INTEGER NOT NULL DEFAULT 0, listed_data TEXT, version INTEGER NOT NULL DEFAULT 1,
     PRIMARY KEY (entity, id))`,
  `CREATE INDEX IF NOT EXISTS records_by_list ON records (entity, parent, seq)`,
  `CREATE TABLE IF NOT EXISTS requests (
     seq INTEGER PRIMARY KEY, epoch INTEGER NOT NULL, ts REAL NOT NULL, method TEXT NOT NULL,
     path TEXT NOT NULL, query TEXT NOT NULL, headers TEXT NOT NULL, body TEXT,
     status INTEGER NOT NULL, auth_outcome TEXT NOT NULL, rate_limited INTEGER NOT NULL,
     retry_after INTEGER, idempotency_key TEXT, faults TEXT NOT NULL, lies TEXT NOT NULL,
     body_bytes INTEGER NOT NULL DEFAULT 0, body_note TEXT, body_sha256 TEXT, log_error TEXT)`,
  `CREATE INDEX IF NOT EXISTS requests_by_epoch ON requests (epoch, seq)`,
  `CREATE TABLE IF NOT EXISTS tokens (
     seq INTEGER PRIMARY KEY, epoch INTEGER NOT NULL, ts REAL NOT NULL, kind TEXT NOT NULL,
     route TEXT NOT NULL, expires_in INTEGER)`,
  `CREATE TABLE IF NOT EXISTS issued (
     value TEXT PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, expires_ms INTEGER NOT NULL,
     family_expires_ms INTEGER, used INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS idempotency (
     scope TEXT NOT NULL, key TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL,
     at_ms INTEGER NOT NULL, at_write INTEGER NOT NULL, PRIMARY KEY (scope, key))`,
  `CREATE TABLE IF NOT EXISTS issued_history (value TEXT PRIMARY KEY)`,
  `CREATE TABLE IF NOT EXISTS revoked (value TEXT PRIMARY KEY)`,
  `CREATE TABLE IF NOT EXISTS fault_fired (epoch INTEGER NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (epoch, id))`,
  `CREATE TABLE IF NOT EXISTS fault_windows (epoch INTEGER NOT NULL, id TEXT NOT NULL, active INTEGER NOT NULL, PRIMARY KEY (epoch, id))`,
  `CREATE TABLE IF NOT EXISTS events (
     seq INTEGER PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, epoch INTEGER NOT NULL, type TEXT NOT NULL,
     body TEXT NOT NULL, created_ms INTEGER NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS deliveries (
     seq INTEGER PRIMARY KEY AUTOINCREMENT, epoch INTEGER NOT NULL, ts REAL NOT NULL, event_id TEXT NOT NULL,
     attempt INTEGER NOT NULL, target TEXT NOT NULL, response_code INTEGER, tampered INTEGER NOT NULL,
     skew_s INTEGER NOT NULL, duplicate INTEGER NOT NULL, via TEXT NOT NULL, acked INTEGER)`,
  `CREATE TABLE IF NOT EXISTS outbox (
     id TEXT PRIMARY KEY, epoch INTEGER NOT NULL, event_id TEXT NOT NULL, attempt INTEGER NOT NULL,
     url TEXT NOT NULL, headers TEXT NOT NULL, body TEXT NOT NULL, tampered INTEGER NOT NULL, skew_s INTEGER NOT NULL,
     duplicate INTEGER NOT NULL, state TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS dead_letters (event_id TEXT PRIMARY KEY, epoch INTEGER NOT NULL, body TEXT NOT NULL, drained INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS schedule (
     id INTEGER PRIMARY KEY AUTOINCREMENT, due_ms INTEGER NOT NULL, kind TEXT NOT NULL,
     payload TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS rate (credential TEXT PRIMARY KEY, used INTEGER NOT NULL, closed_until_ms INTEGER NOT NULL)`,
];

function columnsOf(sql: SqlStorage, table: string): Set<string> {
  return new Set(
    sql
      .exec(`PRAGMA table_info(${table})`)
      .toArray()
      .map((r) => r.name as string),
  );
}

function addColumns(sql: SqlStorage, table: string, columns: [string, string][]): void {
  const have = columnsOf(sql, table);
  for (const [name, type] of columns) if (!have.has(name)) sql.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
}

/** Every migration, in order. Add one at the end; never edit one that has shipped. */
export const WORLD_MIGRATIONS: { version: number; name: string; up: (sql: SqlStorage) => void }[] = [
  { version: 1, name: "tables", up: (sql) => TABLES.forEach((stmt) => sql.exec(stmt)) },
  // Objects whose tables predate these columns (TABLES above already has them for new objects).
  { version: 2, name: "delivery acks", up: (sql) => addColumns(sql, "deliveries", [["acked", "INTEGER"]]) },
  {
    version: 3,
    name: "bounded request bodies",
    up: (sql) =>
      addColumns(sql, "requests", [
        ["body_bytes", "INTEGER NOT NULL DEFAULT 0"],
        ["body_note", "TEXT"],
        ["body_sha256", "TEXT"],
        ["log_error", "TEXT"],
      ]),
  },
  {
    version: 4,
    name: "export jobs",
    up: (sql) => {
      sql.exec(`CREATE TABLE IF NOT EXISTS export_jobs (
         epoch INTEGER NOT NULL, id TEXT NOT NULL, export TEXT NOT NULL, requested_at TEXT NOT NULL,
         row_count INTEGER NOT NULL, polls INTEGER NOT NULL DEFAULT 0, downloads INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (epoch, id))`);
      sql.exec(`CREATE TABLE IF NOT EXISTS export_rows (
         epoch INTEGER NOT NULL, job TEXT NOT NULL, n INTEGER NOT NULL, line TEXT NOT NULL,
         PRIMARY KEY (epoch, job, n))`);
    },
  },
  {
    version: 5,
    name: "accepted writes",
    up: (sql) =>
      sql.exec(`CREATE TABLE IF NOT EXISTS accepted_writes (
         request_id TEXT PRIMARY KEY, write TEXT NOT NULL, due_seq INTEGER NOT NULL,
         params TEXT NOT NULL, body TEXT NOT NULL, landed INTEGER NOT NULL DEFAULT 0)`),
  },
  {
    version: 6,
    // Request rows of one epoch as one JSON array, in the order they were queued: the rows of the requests
    // a world served in one turn (older segments: in up to 50 ms). `max_seq` is their highest sequence
    // number, `faults` the set of fault ids among them.
    // `rows` is the last column, so a scan by epoch never reads a segment's rows it skips.
    name: "request log segments",
    up: (sql) =>
      sql.exec(`CREATE TABLE IF NOT EXISTS request_segments (
         id INTEGER PRIMARY KEY, max_seq INTEGER NOT NULL, epoch INTEGER NOT NULL,
         faults TEXT NOT NULL, rows TEXT NOT NULL)`),
  },
  {
    version: 7,
    // Ground-truth snapshots the farm took on request, by the epoch they were taken in and their label; a
    // snapshot's JSON is split into parts, as storage caps one value at 2 MB. Sealing a run reads them.
    name: "labelled snapshots",
    up: (sql) =>
      sql.exec(`CREATE TABLE IF NOT EXISTS snapshots (
         epoch INTEGER NOT NULL, label TEXT NOT NULL, part INTEGER NOT NULL, json TEXT NOT NULL,
         PRIMARY KEY (epoch, label, part))`),
  },
  {
    version: 8,
    // What armed faults have counted in an epoch (served cut-offs and delays, path counts, their memos), so an
    // evicted or restarted object goes on counting where it stopped instead of arming its faults afresh.
    name: "fault counters",
    up: (sql) => sql.exec(`CREATE TABLE IF NOT EXISTS fault_state (epoch INTEGER PRIMARY KEY, state TEXT NOT NULL)`),
  },
];

/** Brings an object's storage to the newest schema, running each pending migration once. */
export function migrateWorld(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)");
  const applied = (sql.exec("SELECT max(version) AS v FROM schema_migrations").one().v as number | null) ?? 0;
  for (const m of WORLD_MIGRATIONS) {
    if (m.version <= applied) continue;
    m.up(sql);
    sql.exec("INSERT INTO schema_migrations (version, name) VALUES (?, ?)", m.version, m.name);
  }
}

/** Whether this object's storage was ever set up (an unknown world's object has none, and must not get any). */
export function worldSchemaExists(sql: SqlStorage): boolean {
  return sql.exec("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'meta'").one().n === 1;
}
