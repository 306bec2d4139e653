/**
 * @module log-storage-worker
 * Writes request-log rows in a Durable Object, k rows per turn of the event
 * loop (a busy world serves several requests before storage commits them):
 * through the real `LogStore` (the turn's rows as one segment, written before
 * the turn's answers leave), as a segment of one per request, or as one SQLite
 * row per request with a column per field (the layout before segments). The
 * rows are the ones a single-record read logs.
 */
import { DurableObject } from "cloudflare:workers";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import { LogStore } from "../../../workers/engine/store/logs.ts";
import { migrateWorld } from "../../../workers/world/schema.ts";

const ROW: Omit<RequestLogEntry, "seq"> = {
  epoch: 0,
  ts: 1764640000.123,
  method: "GET",
  path: "/v1/candidates/1001",
  query: {},
  headers: { accept: "*/*", "accept-encoding": "gzip, deflate", connection: "keep-alive", host: "127.0.0.1:44929", "user-agent": "node", "x-api-key": "[redacted]" },
  body: null,
  bodyBytes: 0,
  bodyNote: null,
  bodySha256: null,
  status: 200,
  authOutcome: "ok",
  rateLimited: false,
  retryAfter: null,
  idempotencyKey: null,
  faults: [],
  lies: [],
};

/** One row per request, as the `requests` table was written. */
function insertRow(sql: SqlStorage, e: RequestLogEntry): void {
  sql.exec(
    `INSERT INTO requests (seq, epoch, ts, method, path, query, headers, body, body_bytes, body_note, body_sha256, status, auth_outcome, rate_limited, retry_after, idempotency_key, faults, lies, log_error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    e.seq,
    e.epoch,
    e.ts,
    e.method,
    e.path,
    JSON.stringify(e.query),
    JSON.stringify(e.headers),
    null,
    e.bodyBytes,
    e.bodyNote,
    e.bodySha256,
    e.status,
    e.authOutcome,
    e.rateLimited ? 1 : 0,
    e.retryAfter,
    e.idempotencyKey,
    JSON.stringify(e.faults),
    JSON.stringify(e.lies),
    null,
  );
}

export class LogBench extends DurableObject {
  /** Writes `turns` × `perTurn` rows; `layout` is "logstore", "single" or "rows". */
  async run(layout: string, turns: number, perTurn: number): Promise<number> {
    const sql = this.ctx.storage.sql;
    migrateWorld(sql);
    const logs = new LogStore(sql);
    for (let t = 0; t < turns; t++) {
      for (let i = 0; i < perTurn; i++) {
        const e = { ...ROW, seq: logs.allocateRequestSeq() };
        if (layout === "logstore") logs.appendRequest(e);
        else if (layout === "rows") insertRow(sql, e);
        else sql.exec("INSERT INTO request_segments (max_seq, epoch, faults, rows) VALUES (?, 0, '[]', ?)", e.seq, JSON.stringify([e]));
      }
      // The next turn: LogStore writes its queue; storage commits what this turn wrote.
      await (layout === "logstore" ? logs.written() : new Promise((resolve) => setTimeout(resolve, 0)));
    }
    return logs.requests().length;
  }
}

export default {
  async fetch(request: Request, env: { BENCH: DurableObjectNamespace<LogBench> }): Promise<Response> {
    const q = new URL(request.url).searchParams;
    const stub = env.BENCH.get(env.BENCH.idFromName(q.get("object") ?? "x"));
    return Response.json({ rows: await stub.run(q.get("layout") ?? "logstore", Number(q.get("turns")), Number(q.get("perTurn"))) });
  },
};
