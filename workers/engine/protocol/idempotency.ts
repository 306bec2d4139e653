import type { Write } from "../../../declarations/schema/writes.ts";
import type { Reply } from "../../../mechanics/kit/reply.ts";
import type { HeaderReader } from "../../../mechanics/kit/request-headers.ts";

/** A stored first answer to an idempotent write. */
interface Stored {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Replays and records answers of idempotent writes. */
export class IdempotencyLedger {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  /** The key a request carries for this write, or null. */
  keyOf(write: Write, headers: HeaderReader, body: Record<string, unknown> | null): string | null {
    const idem = write.idempotency;
    if (!idem) return null;
    if (idem.in === "header") return headers.get(idem.name)?.trim() || null;
    const v = body?.[idem.field];
    return typeof v === "string" && v !== "" ? v : null;
  }

  private writesSoFar(): number {
    return (this.sql.exec("SELECT max(at_write) AS m FROM idempotency").one().m as number | null) ?? 0;
  }

  /** The stored reply for a key still inside its window, or null. */
  replay(write: Write, key: string, nowMs: number): Reply | null {
    const idem = write.idempotency!;
    const rows = this.sql.exec("SELECT * FROM idempotency WHERE scope = ? AND key = ?", write.name, key).toArray();
    if (!rows.length) return null;
    const r = rows[0];
    const fresh = idem.in === "header" ? nowMs - (r.at_ms as number) <= idem.windowS * 1000 : this.writesSoFar() - (r.at_write as number) < idem.windowWrites;
    if (!fresh) return null;
    const stored = JSON.parse(r.body as string) as Stored;
    return { status: stored.status, body: stored.body, headers: { ...stored.headers, "idempotent-replayed": "true" } };
  }

  remember(write: Write, key: string, reply: Reply, nowMs: number): void {
    const stored: Stored = { status: reply.status, body: reply.body, headers: reply.headers };
    this.sql.exec(
      "INSERT OR REPLACE INTO idempotency (scope, key, status, body, at_ms, at_write) VALUES (?, ?, ?, ?, ?, ?)",
      write.name,
      key,
      reply.status,
      JSON.stringify(stored),
      nowMs,
      this.writesSoFar() + 1,
    );
  }
}
