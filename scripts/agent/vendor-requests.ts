/**
 * @module vendor-requests
 * The development world's request log, each row tagged with the trajectory
 * event during which the proxy forwarded it: a reader sees which tool call
 * made which vendor request.
 */
import type { RequestLogEntry } from "../../evidence/logs.ts";
import { PROXY_SEQ_HEADER, type ProxyEntry } from "./sandbox/proxy.ts";
import type { TrajectoryEvent } from "./trajectory.ts";

export interface TaggedRequest extends RequestLogEntry {
  /** Index of the trajectory event (a tool call) in flight when the request was made; null when none was. */
  event: number | null;
}

/**
 * Seconds a request may fall outside its tool call's window and still be
 * given to it: a CLI's event lines reach the harness through a pipe, so a
 * call's start can be read a little after the command it started made its
 * first request, later on a loaded machine. Both clocks count from the
 * agent's start (see `originMs` in run-sandboxed.ts).
 */
const SLACK_S = 5;

/** The latest call in flight at `t`; else the call whose window is nearest, within the slack. */
function callAt(calls: Extract<TrajectoryEvent, { kind: "tool_call" }>[], t: number) {
  const during = calls.filter((c) => c.t <= t && (c.t_end === null || c.t_end >= t)).at(-1);
  if (during) return during;
  let best: (typeof calls)[number] | undefined;
  let gap = SLACK_S;
  for (const c of calls) {
    const d = t < c.t ? c.t - t : c.t_end === null ? 0 : t - c.t_end;
    if (d <= gap) {
      gap = d;
      best = c;
    }
  }
  return best;
}

/** Tags rows by the proxy sequence header they carry and the time the proxy saw them. */
export function tagRequests(rows: RequestLogEntry[], proxyLog: ProxyEntry[], events: TrajectoryEvent[], agentStartMs: number): TaggedRequest[] {
  const bySeq = new Map(proxyLog.map((p) => [String(p.seq), p]));
  const calls = events.filter((e): e is Extract<TrajectoryEvent, { kind: "tool_call" }> => e.kind === "tool_call");
  return rows.map((r) => {
    const seen = bySeq.get(r.headers[PROXY_SEQ_HEADER] ?? "");
    const t = seen ? (seen.atMs - agentStartMs) / 1000 : null;
    return { ...r, event: t === null ? null : (callAt(calls, t)?.i ?? null) };
  });
}
