/**
 * @module vendor-requests
 * The development world's request log, each row tagged with the trajectory
 * event during which the proxy forwarded it: a reader sees which tool call
 * made which vendor request.
 */
import type { RequestLogEntry } from "../../declarations/evidence/logs.ts";
import { PROXY_SEQ_HEADER, type ProxyEntry } from "./sandbox/proxy.ts";
import type { TrajectoryEvent } from "./trajectory.ts";

export interface TaggedRequest extends RequestLogEntry {
  /** Index of the trajectory event (a tool call) in flight when the request was made; null when none was. */
  event: number | null;
}

/** Tags rows by the proxy sequence header they carry and the time the proxy saw them. */
export function tagRequests(rows: RequestLogEntry[], proxyLog: ProxyEntry[], events: TrajectoryEvent[], agentStartMs: number): TaggedRequest[] {
  const bySeq = new Map(proxyLog.map((p) => [String(p.seq), p]));
  const calls = events.filter((e): e is Extract<TrajectoryEvent, { kind: "tool_call" }> => e.kind === "tool_call");
  return rows.map((r) => {
    const seen = bySeq.get(r.headers[PROXY_SEQ_HEADER] ?? "");
    const t = seen ? (seen.atMs - agentStartMs) / 1000 : null;
    // The latest call that had started by then and had not yet returned.
    const during = t === null ? undefined : calls.filter((c) => c.t <= t + 0.001 && (c.t_end === null || c.t_end >= t - 0.001)).at(-1);
    return { ...r, event: during ? during.i : null };
  });
}
