import type { Vendor } from "../../../declarations/schema/vendor.ts";
import { formatTime } from "../data/clock.ts";
import { wireId } from "../data/ids.ts";
import type { WorldConfig } from "../world-config.ts";
import type { VendorEvent } from "./events.ts";
import { signatureHeaders } from "./sign.ts";

/** One delivery attempt as logged (DESIGN.md shape). */
export interface DeliveryLogEntry {
  seq: number;
  epoch: number;
  ts: number;
  eventId: string;
  attempt: number;
  target: string;
  /** Status the receiver answered, or null when it did not answer. */
  responseCode: number | null;
  /** Same as responseCode (the predecessor's scenarios read this name). */
  statusCode: number | null;
  tampered: boolean;
  skewS: number;
  duplicate: boolean;
  /** `direct` (the farm fetched the target) or `relay` (a harness delivered it from the outbox). */
  via: "direct" | "relay";
}

/** Something the dispatcher wants done later: the caller puts it on the alarm. */
export interface DeliveryJob {
  dueMs: number;
  eventId: string;
  attempt: number;
}

const TIMEOUT_MS = 5000;

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

  /** Stores events with ids in arrival order (`evt_00001`, ...) and returns first-attempt jobs. */
  enqueue(events: VendorEvent[], nowMs: number): DeliveryJob[] {
    const jobs: DeliveryJob[] = [];
    let seq = ((this.sql.exec("SELECT max(seq) AS m FROM events").one().m as number | null) ?? 0);
    for (const e of events) {
      seq += 1;
      const eventId = `evt_${String(seq).padStart(5, "0")}`;
      const resource = this.vendor.resources.find((r) => r.name === e.entity)!;
      const data = e.record && this.vendor.webhooks!.payload === "full" ? e.record : { [resource.idField]: wireId(resource, e.recordId) };
      const body = JSON.stringify({ id: eventId, type: e.type, created_at: formatTime(e.atMs, this.vendor.clock.format, e.recordId), data });
      this.sql.exec("INSERT INTO events (seq, event_id, epoch, type, body, created_ms) VALUES (?, ?, ?, ?, ?, ?)", seq, eventId, this.config.epoch, e.type, body, nowMs);
      jobs.push({ dueMs: nowMs, eventId, attempt: 1 });
    }
    return jobs;
  }

  /** Makes one attempt; returns the retry job when another attempt is due. */
  async attempt(eventId: string, attempt: number, nowMs: number): Promise<DeliveryJob | null> {
    const hooks = this.vendor.webhooks;
    const target = this.config.webhookTarget;
    const rows = this.sql.exec("SELECT body FROM events WHERE event_id = ?", eventId).toArray();
    if (!hooks || !target || !rows.length) return null;
    const body = rows[0].body as string;
    const headers = { "content-type": "application/json", ...(await signatureHeaders(hooks.signature, this.config.credentials[hooks.signature.secret], { id: eventId, timestampS: Math.floor(nowMs / 1000), body })) };
    if (this.config.relay) {
      const id = `${eventId}-a${attempt}`;
      this.sql.exec(
        "INSERT OR IGNORE INTO outbox (id, epoch, event_id, attempt, url, headers, body, tampered, skew_s, duplicate, state) VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 'pending')",
        id, this.config.epoch, eventId, attempt, target, JSON.stringify(headers), body,
      );
      return null;
    }
    let code: number | null = null;
    try {
      const res = await fetch(target, { method: "POST", headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      code = res.status;
      await res.arrayBuffer();
    } catch {
      code = null;
    }
    return this.record({ eventId, attempt, target, code, via: "direct", nowMs });
  }

  /** Logs an attempt's outcome and schedules the next one when it failed. */
  record(r: { eventId: string; attempt: number; target: string; code: number | null; via: "direct" | "relay"; nowMs: number }): DeliveryJob | null {
    this.sql.exec(
      "INSERT INTO deliveries (epoch, ts, event_id, attempt, target, response_code, tampered, skew_s, duplicate, via) VALUES (?, ?, ?, ?, ?, ?, 0, 0, 0, ?)",
      this.config.epoch, r.nowMs / 1000, r.eventId, r.attempt, r.target, r.code, r.via,
    );
    const ok = r.code !== null && r.code >= 200 && r.code < 300;
    const schedule = this.vendor.webhooks?.retrySchedule ?? [];
    if (ok || r.attempt > schedule.length) return null;
    return { dueMs: r.nowMs + schedule[r.attempt - 1] * 1000, eventId: r.eventId, attempt: r.attempt + 1 };
  }

  /** Pending relay deliveries, marked as handed out. */
  drainOutbox(): { id: string; eventId: string; attempt: number; url: string; headers: Record<string, string>; body: string }[] {
    const rows = this.sql.exec("SELECT * FROM outbox WHERE state = 'pending' ORDER BY rowid").toArray();
    this.sql.exec("UPDATE outbox SET state = 'sent' WHERE state = 'pending'");
    return rows.map((r) => ({ id: r.id as string, eventId: r.event_id as string, attempt: r.attempt as number, url: r.url as string, headers: JSON.parse(r.headers as string), body: r.body as string }));
  }

  /** The harness reports what a relayed delivery got; logged like a direct one. */
  relayResult(id: string, code: number | null, nowMs: number): { job: DeliveryJob | null } | null {
    const rows = this.sql.exec("SELECT * FROM outbox WHERE id = ? AND state = 'sent'", id).toArray();
    if (!rows.length) return null;
    this.sql.exec("UPDATE outbox SET state = 'done' WHERE id = ?", id);
    const r = rows[0];
    return { job: this.record({ eventId: r.event_id as string, attempt: r.attempt as number, target: r.url as string, code, via: "relay", nowMs }) };
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
    }));
  }
}
