/**
 * @module accepted
 * Writes the vendor accepts now and applies later (`Write.accepted`): the
 * call is validated, stored with the request number it is due at and
 * answered `202` with a request id; the change lands at the first request
 * that reaches a route once `afterRequests` further requests have been
 * served (counted, never timed), and its webhook event carries the request
 * id. A fault may turn a write down as it lands (the write's `refusedOp`
 * event then carries the request id and the vendor's error). Pending writes live in SQLite, so an evicted object still applies each
 * one exactly once; a recreate drops them.
 */
import type { Vendor } from "../../../declarations/schema/vendor.ts";
import type { Write } from "../../../declarations/schema/writes.ts";
import { json, type Reply } from "../../../mechanics/kit/reply.ts";
import type { HandlerContext } from "../handler-context.ts";

/** One accepted write waiting to land. */
interface Pending {
  requestId: string;
  write: string;
  params: Record<string, string>;
  body: Record<string, unknown>;
}

/** The `accepted_writes` table. */
class AcceptedStore {
  private readonly sql: SqlStorage;

  constructor(sql: SqlStorage) {
    this.sql = sql;
  }

  add(p: Pending, dueSeq: number): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO accepted_writes (request_id, write, due_seq, params, body) VALUES (?, ?, ?, ?, ?)",
      p.requestId,
      p.write,
      dueSeq,
      JSON.stringify(p.params),
      JSON.stringify(p.body),
    );
  }

  /** The writes due by request `seq`, oldest first, marked landed. */
  takeDue(seq: number): Pending[] {
    const rows = this.sql.exec("SELECT request_id, write, params, body FROM accepted_writes WHERE landed = 0 AND due_seq <= ? ORDER BY due_seq, request_id", seq).toArray();
    if (rows.length) this.sql.exec("UPDATE accepted_writes SET landed = 1 WHERE landed = 0 AND due_seq <= ?", seq);
    return rows.map((r) => ({ requestId: r.request_id as string, write: r.write as string, params: JSON.parse(r.params as string), body: JSON.parse(r.body as string) }));
  }
}

/** Stores a validated write for later and answers 202 with its request id (as the write declares, or as a fault takes it). */
export function acceptForLater(ctx: HandlerContext, write: Write, body: Record<string, unknown>, taken?: { afterRequests: number; requestIdField: string; requestIdPrefix: string }): Reply {
  const a = taken ?? write.accepted!;
  const requestId = `${a.requestIdPrefix}${String(ctx.req.seq).padStart(6, "0")}`;
  // Requests seq+1 .. seq+afterRequests are the further requests; the next one sees the change.
  new AcceptedStore(ctx.sql).add({ requestId, write: write.name, params: ctx.params, body }, ctx.req.seq + a.afterRequests + 1);
  return json(202, { [a.requestIdField]: requestId, status: "pending" });
}

/** Whether some accepted write has yet to land (a later request will change the records). */
export function writesPending(vendor: Vendor, sql: SqlStorage): boolean {
  return vendor.writes.some((w) => w.accepted) && sql.exec("SELECT 1 FROM accepted_writes WHERE landed = 0 LIMIT 1").toArray().length > 0;
}

/**
 * Applies the accepted writes due by this request, each in a context of its
 * own (its path parameters, its body), announcing each change with its
 * request id (or, where a fault turns one down, announcing the refusal
 * instead). `apply` is the write's change, without validation or faults.
 */
export function landDueWrites(ctx: HandlerContext, apply: (ctx: HandlerContext, write: Write, body: Record<string, unknown>) => void): void {
  if (!ctx.vendor.writes.some((w) => w.accepted) && !ctx.faults.defersWrites()) return;
  for (const due of new AcceptedStore(ctx.sql).takeDue(ctx.req.seq)) {
    const write = ctx.vendor.writes.find((w) => w.name === due.write);
    if (!write) continue;
    const field = write.accepted?.requestIdField ?? "request_id";
    const refusedOp = write.accepted?.refusedOp;
    const refused = refusedOp ? ctx.faults.onLanding(write.name, due.params.id ?? "") : null;
    if (refusedOp && refused) {
      // Turned down as it came to land: nothing changes, and the refusal is announced with the request id.
      ctx.notes.faults.push(refused.fault);
      const row = due.params.id === undefined ? undefined : ctx.records.get(write.entity, due.params.id);
      if (row) ctx.changed(write.entity, refusedOp, row, { [field]: due.requestId, error: { code: refused.code, message: refused.message } });
      continue;
    }
    const landing: HandlerContext = {
      ...ctx,
      params: due.params,
      req: { ...ctx.req, body: due.body },
      changed: (entity, op, row, extra) => ctx.changed(entity, op, row, { ...extra, [field]: due.requestId }),
    };
    apply(landing, write, due.body);
  }
}
