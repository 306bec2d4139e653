/**
 * @module schedule
 * Many timed events share the Durable Object's single alarm: they wait in a
 * SQLite table, the alarm is armed for the earliest, and each event's row is
 * deleted in the same transaction that applies it, so a retried alarm never
 * applies one twice.
 */

/** What can wait on the alarm: a typed union, one member per kind. */
export type ScheduledEvent =
  /** A timed fault window opens or closes. */
  | { kind: "fault-window"; fault: string; active: boolean }
  /** A webhook delivery attempt is due. */
  | { kind: "webhook-deliver"; eventId: string; attempt: number; tampered: boolean; skewS: number; duplicate: boolean; fault: string | null }
  /** The world's lifetime is over: the object deletes its storage. */
  | { kind: "world-expire" };

/** Events of the world's life rather than of an epoch's timeline: a recreate keeps them. */
const LIFECYCLE_KINDS: ScheduledEvent["kind"][] = ["world-expire"];

/** A pending event with its row id and due time. */
export interface DueEvent {
  id: number;
  dueMs: number;
  event: ScheduledEvent;
}

export class Schedule {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  add(dueMs: number, event: ScheduledEvent): void {
    const { kind, ...payload } = event;
    this.sql.exec("INSERT INTO schedule (due_ms, kind, payload) VALUES (?, ?, ?)", dueMs, kind, JSON.stringify(payload));
  }

  /** Drops every pending timeline event (a recreate starts a new timeline); lifecycle events stay. */
  clear(): void {
    this.sql.exec(`DELETE FROM schedule WHERE kind NOT IN (${LIFECYCLE_KINDS.map(() => "?").join(", ")})`, ...LIFECYCLE_KINDS);
  }

  /** Earliest pending due time, or null. */
  next(): number | null {
    return (this.sql.exec("SELECT min(due_ms) AS m FROM schedule WHERE done = 0").one().m as number | null) ?? null;
  }

  /** Pending events of one kind. */
  pending(kind: ScheduledEvent["kind"]): number {
    return this.sql.exec("SELECT count(*) AS n FROM schedule WHERE done = 0 AND kind = ?", kind).one().n as number;
  }

  /**
   * The events an alarm firing now should apply: every one already due, and
   * at least the earliest batch of timeline events (an alarm forced early, as
   * tests do, still applies the events it was set for). A lifecycle event
   * applies only once it is due: forcing an alarm never ends a world early.
   */
  dueAt(nowMs: number): DueEvent[] {
    const kinds = LIFECYCLE_KINDS.map(() => "?").join(", ");
    const earliest = (this.sql.exec(`SELECT min(due_ms) AS m FROM schedule WHERE done = 0 AND kind NOT IN (${kinds})`, ...LIFECYCLE_KINDS).one().m as number | null) ?? nowMs;
    return this.sql
      .exec(
        `SELECT id, due_ms, kind, payload FROM schedule WHERE done = 0 AND (due_ms <= ? OR (due_ms <= ? AND kind NOT IN (${kinds}))) ORDER BY due_ms, id`,
        nowMs,
        Math.max(nowMs, earliest),
        ...LIFECYCLE_KINDS,
      )
      .toArray()
      .map((r) => ({ id: r.id as number, dueMs: r.due_ms as number, event: { kind: r.kind, ...JSON.parse(r.payload as string) } as ScheduledEvent }));
  }

  /** Removes an applied event; call it inside the transaction that applies it. */
  done(id: number): void {
    this.sql.exec("DELETE FROM schedule WHERE id = ?", id);
  }

  /** Arms the alarm for the earliest pending event, or disarms it. */
  async arm(storage: DurableObjectStorage): Promise<void> {
    const next = this.next();
    if (next === null) await storage.deleteAlarm();
    else await storage.setAlarm(next);
  }
}
