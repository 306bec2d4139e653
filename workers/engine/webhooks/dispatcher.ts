import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { formatTime, recordZone } from "../data/clock.ts";
import { wireId } from "../data/ids.ts";
import type { WorldConfig } from "../world-config.ts";
import type { VendorEvent } from "./events.ts";
import type { FaultRuntime } from "../faults/fault-runtime.ts";
import { signatureHeaders } from "../../../mechanics/signatures/index.ts";
import type { DeliveryLogEntry } from "../../../evidence/logs.ts";

/** Something the dispatcher wants done later: the caller puts it on the alarm. */
export interface DeliveryJob {
  dueMs: number;
  eventId: string;
  attempt: number;
  /** Injected deliveries (faults) are never retried. */
  tampered?: boolean;
  skewS?: number;
  duplicate?: boolean;
  /** Fault that injected or shaped this delivery. */
  fault?: string;
}

const TIMEOUT_MS = 5000;

/** Whether a receiver's answer acknowledges an event under the ack-body protocol. */
function acknowledges(answer: string, field: string, eventId: string): boolean {
  try {
    const parsed = JSON.parse(answer) as Record<string, unknown>;
    return parsed?.[field] === eventId;
  } catch {
    return false;
  }
}

/**
 * Turns vendor events into signed deliveries: stores each event once, sends
 * (or, in relay mode, parks in the outbox) one attempt at a time, logs every
 * attempt, and asks for a retry on the declared backoff after a non-2xx or no
 * answer.
 */
export class WebhookDispatcher {
  private readonly vendor: Vendor;
  private readonly sql: SqlStorage;
  private readonly config: WorldConfig;

  constructor(vendor: Vendor, sql: SqlStorage, config: WorldConfig) {
    this.vendor = vendor;
    this.sql = sql;
    this.config = config;
  }

  /**
   * Stores events with ids in arrival order (`evt_00001`, ...) and returns
   * first-attempt jobs, shaped by the armed webhook faults: duplicates,
   * drops, reversed batches, forged and stale injections, late older versions.
   */
  enqueue(events: VendorEvent[], nowMs: number, faults?: FaultRuntime): DeliveryJob[] {
    const jobs: DeliveryJob[] = [];
    const late: DeliveryJob[] = [];
    // Late versions are stored under a `late:` type so they count as no new event of the epoch.
    const prior = this.sql.exec("SELECT count(*) AS n FROM events WHERE epoch = ? AND type NOT LIKE 'late:%'", this.config.epoch).one().n as number;
    let seq = (this.sql.exec("SELECT max(seq) AS m FROM events").one().m as number | null) ?? 0;
    const store = (e: VendorEvent, atMs: number, record: Record<string, unknown> | null, kind = e.type): string => {
      seq += 1;
      const eventId = `evt_${String(seq).padStart(5, "0")}`;
      const resource = this.vendor.resources.find((r) => r.name === e.entity)!;
      const data = record && this.vendor.webhooks!.payload === "full" ? record : { [resource.idField]: wireId(resource, e.recordId) };
      const body = JSON.stringify({ id: eventId, type: e.type, created_at: formatTime(atMs, this.vendor.clock.format, e.recordId, recordZone(this.vendor.clock, record)), ...e.extra, data });
      this.sql.exec("INSERT INTO events (seq, event_id, epoch, type, body, created_ms) VALUES (?, ?, ?, ?, ?, ?)", seq, eventId, this.config.epoch, kind, body, nowMs);
      return eventId;
    };
    let n = prior;
    for (const e of events) {
      const eventId = store(e, e.atMs, e.record);
      n += 1;
      const nthOfType = (type: string) => this.sql.exec("SELECT count(*) AS n FROM events WHERE epoch = ? AND type = ?", this.config.epoch, type).one().n as number;
      const shaped = faults?.shapeEvent({ type: e.type, n, nthOfType }) ?? { dropped: false, extra: [], lateVersion: null };
      if (!shaped.dropped) jobs.push({ dueMs: nowMs, eventId, attempt: 1 });
      for (const x of shaped.extra) jobs.push({ dueMs: nowMs, eventId, attempt: 1, ...x });
      if (shaped.lateVersion && e.previous) {
        // The change before this one, held up: its own event, delivered after the whole batch (deliveries go one at a time, in order).
        const lateId = store(e, e.previous.atMs, e.previous.record, `late:${e.type}`);
        late.push({ dueMs: nowMs, eventId: lateId, attempt: 1, fault: shaped.lateVersion });
      }
    }
    return [...(faults ? faults.reorderBatch(jobs) : jobs), ...late];
  }

  /** The id of the event stored last, or null before any. */
  lastEventId(): string | null {
    const rows = this.sql.exec("SELECT event_id FROM events ORDER BY seq DESC LIMIT 1").toArray();
    return rows.length ? (rows[0].event_id as string) : null;
  }

  /** The ack-body protocol when it is in force at the world's checkpoint (a vendor may switch it on from a checkpoint). */
  private ackInForce(): NonNullable<Vendor["webhooks"]>["ack"] | null {
    const ack = this.vendor.webhooks?.ack;
    if (!ack || this.config.checkpoint < (ack.fromCheckpoint ?? 0)) return null;
    return ack;
  }

  /** Makes one attempt; returns the retry job when another attempt is due. */
  async attempt(job: Omit<DeliveryJob, "dueMs">, nowMs: number): Promise<DeliveryJob | null> {
    const { eventId, attempt } = job;
    const skewS = job.skewS ?? 0;
    const hooks = this.vendor.webhooks;
    const target = this.config.webhookTarget;
    const rows = this.sql.exec("SELECT body FROM events WHERE event_id = ?", eventId).toArray();
    if (!hooks || !target || !rows.length) return null;
    const body = rows[0].body as string;
    const signed = await signatureHeaders(
      hooks.signature,
      this.config.credentials[hooks.signature.secret],
      { id: eventId, timestampS: Math.floor(nowMs / 1000) - skewS, body },
      { tamper: job.tampered },
    );
    const headers = { "content-type": "application/json", ...signed };
    const flags = { tampered: !!job.tampered, skewS, duplicate: !!job.duplicate };
    if (this.config.relay) {
      const n = this.sql.exec("SELECT count(*) AS n FROM outbox WHERE event_id = ?", eventId).one().n as number;
      this.sql.exec(
        "INSERT INTO outbox (id, epoch, event_id, attempt, url, headers, body, tampered, skew_s, duplicate, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')",
        `${eventId}-${n + 1}`,
        this.config.epoch,
        eventId,
        attempt,
        target,
        JSON.stringify(headers),
        body,
        flags.tampered ? 1 : 0,
        skewS,
        flags.duplicate ? 1 : 0,
      );
      return null;
    }
    let code: number | null = null;
    let answer = "";
    try {
      const res = await fetch(target, { method: "POST", headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      code = res.status;
      answer = await res.text();
    } catch {
      code = null;
    }
    return this.record({ eventId, attempt, target, code, answer, via: "direct", nowMs, ...flags });
  }

  /** Logs an attempt's outcome and schedules the next one when a real (not injected) delivery failed. */
  record(r: {
    eventId: string;
    attempt: number;
    target: string;
    code: number | null;
    answer?: string;
    via: "direct" | "relay";
    nowMs: number;
    tampered: boolean;
    skewS: number;
    duplicate: boolean;
  }): DeliveryJob | null {
    const ack = this.ackInForce();
    const acked = ack ? acknowledges(r.answer ?? "", ack.field, r.eventId) : null;
    this.sql.exec(
      "INSERT INTO deliveries (epoch, ts, event_id, attempt, target, response_code, tampered, skew_s, duplicate, via, acked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      this.config.epoch,
      r.nowMs / 1000,
      r.eventId,
      r.attempt,
      r.target,
      r.code,
      r.tampered ? 1 : 0,
      r.skewS,
      r.duplicate ? 1 : 0,
      r.via,
      acked === null ? null : acked ? 1 : 0,
    );
    if (r.tampered || r.skewS || r.duplicate) return null;
    const ok = r.code !== null && r.code >= 200 && r.code < 300 && acked !== false;
    // Under the ack-body protocol a vendor may give up sooner than its full retry schedule.
    const schedule = (this.vendor.webhooks?.retrySchedule ?? []).slice(0, ack?.maxAttempts ? ack.maxAttempts - 1 : undefined);
    if (!ok && ack && r.attempt > schedule.length) {
      const body = this.sql.exec("SELECT body FROM events WHERE event_id = ?", r.eventId).one().body as string;
      this.sql.exec("INSERT OR IGNORE INTO dead_letters (event_id, epoch, body) VALUES (?, ?, ?)", r.eventId, this.config.epoch, body);
    }
    if (ok || r.attempt > schedule.length) return null;
    return { dueMs: r.nowMs + schedule[r.attempt - 1] * 1000, eventId: r.eventId, attempt: r.attempt + 1 };
  }

  /** Pending relay deliveries, marked as handed out. */
  drainOutbox(): { id: string; eventId: string; attempt: number; url: string; headers: Record<string, string>; body: string }[] {
    const rows = this.sql.exec("SELECT * FROM outbox WHERE state = 'pending' ORDER BY rowid").toArray();
    this.sql.exec("UPDATE outbox SET state = 'sent' WHERE state = 'pending'");
    return rows.map((r) => ({
      id: r.id as string,
      eventId: r.event_id as string,
      attempt: r.attempt as number,
      url: r.url as string,
      headers: JSON.parse(r.headers as string),
      body: r.body as string,
    }));
  }

  /** The harness reports what a relayed delivery got; logged like a direct one. */
  relayResult(id: string, code: number | null, nowMs: number, answer = ""): { job: DeliveryJob | null } | null {
    const rows = this.sql.exec("SELECT * FROM outbox WHERE id = ? AND state = 'sent'", id).toArray();
    if (!rows.length) return null;
    this.sql.exec("UPDATE outbox SET state = 'done' WHERE id = ?", id);
    const r = rows[0];
    return {
      job: this.record({
        eventId: r.event_id as string,
        attempt: r.attempt as number,
        target: r.url as string,
        code,
        answer,
        via: "relay",
        nowMs,
        tampered: r.tampered === 1,
        skewS: r.skew_s as number,
        duplicate: r.duplicate === 1,
      }),
    };
  }

  log(epoch?: number): DeliveryLogEntry[] {
    const rows = epoch === undefined ? this.sql.exec("SELECT * FROM deliveries ORDER BY seq") : this.sql.exec("SELECT * FROM deliveries WHERE epoch = ? ORDER BY seq", epoch);
    return rows.toArray().map((r) => ({
      seq: r.seq as number,
      epoch: r.epoch as number,
      ts: r.ts as number,
      eventId: r.event_id as string,
      attempt: r.attempt as number,
      target: r.target as string,
      responseCode: (r.response_code as number | null) ?? null,
      statusCode: (r.response_code as number | null) ?? null,
      tampered: r.tampered === 1,
      skewS: r.skew_s as number,
      duplicate: r.duplicate === 1,
      via: r.via as "direct" | "relay",
      acked: r.acked === null || r.acked === undefined ? null : r.acked === 1,
    }));
  }

  /** Takes the dead letters not yet drained, oldest first, and marks them drained. */
  drainDeadLetters(): unknown[] {
    const rows = this.sql.exec("SELECT event_id, body FROM dead_letters WHERE drained = 0 ORDER BY event_id").toArray();
    this.sql.exec("UPDATE dead_letters SET drained = 1 WHERE drained = 0");
    return rows.map((r) => JSON.parse(r.body as string));
  }
}
