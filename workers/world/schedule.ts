/** One scheduled event of a role. */
export interface ScheduledEvent {
  id: number;
  dueMs: number;
  kind: string;
  payload: Record<string, unknown>;
}

/**
 * Many timed events share the Durable Object's single alarm: they wait in a
 * SQLite table, the alarm is set for the earliest, and each event is marked
 * done in the same transaction that applies it, so a retried alarm never
 * applies one twice.
 */
export class Schedule {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  add(dueMs: number, kind: string, payload: Record<string, unknown>): void {
    this.sql.exec("INSERT INTO schedule (due_ms, kind, payload) VALUES (?, ?, ?)", dueMs, kind, JSON.stringify(payload));
  }

  /** Drops every pending event (a recreate starts a new timeline). */
  clear(): void {
    this.sql.exec("UPDATE schedule SET done = 1 WHERE done = 0");
  }

  /** Earliest pending due time, or null. */
  next(): number | null {
    return (this.sql.exec("SELECT min(due_ms) AS m FROM schedule WHERE done = 0").one().m as number | null) ?? null;
  }

  /**
   * The events an alarm firing now should apply: every one already due, and
   * at least the earliest batch (an alarm forced early, as tests do, still
   * applies the events it was set for).
   */
  dueAt(nowMs: number): ScheduledEvent[] {
    const earliest = this.next();
    if (earliest === null) return [];
    return this.sql
      .exec("SELECT id, due_ms, kind, payload FROM schedule WHERE done = 0 AND due_ms <= ? ORDER BY due_ms, id", Math.max(nowMs, earliest))
      .toArray()
      .map((r) => ({ id: r.id as number, dueMs: r.due_ms as number, kind: r.kind as string, payload: JSON.parse(r.payload as string) }));
  }

  markDone(id: number): void {
    this.sql.exec("UPDATE schedule SET done = 1 WHERE id = ?", id);
  }
}
