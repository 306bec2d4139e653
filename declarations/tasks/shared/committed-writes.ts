/**
 * @module shared/committed-writes
 * Which write calls a vendor applied, from its request log alone, for judging
 * "exactly once" under faults that answer 5xx after the write committed.
 */
import type { RequestLogEntry } from "../../../evidence/logs.ts";

/** Which calls are the write, and how the vendor treats them. */
export interface CommittedWriteRule {
  /** Whether a logged request is a call of the write (method and path). */
  isCall: (r: RequestLogEntry) => boolean;
  /** How long the vendor replays a stored Idempotency-Key (seconds); 0 without keys. */
  windowS: number;
  /** Faults whose 5xx answers a call the vendor did commit. */
  afterCommitFaults: readonly string[];
}

/**
 * The calls of a write that committed, in log order. A call commits when the
 * vendor applied it: a 2xx, or a 5xx an after-commit fault produced. A call
 * whose Idempotency-Key the vendor had already stored (same epoch, inside the
 * window) is a replay and commits nothing; the vendor stores the answers below
 * 500 and the after-commit ones. Refused calls (rate-limited, 429, auth) never
 * reach the write.
 */
export function committedWrites(requests: readonly RequestLogEntry[], rule: CommittedWriteRule): RequestLogEntry[] {
  const stored = new Map<string, number>();
  const out: RequestLogEntry[] = [];
  for (const r of [...requests].sort((a, b) => a.seq - b.seq)) {
    if (!rule.isCall(r) || r.rateLimited || r.authOutcome !== "ok" || r.status === 401 || r.status === 429) continue;
    const key = r.idempotencyKey ? `${r.epoch}|${r.idempotencyKey}` : null;
    const firstSeen = key === null ? undefined : stored.get(key);
    if (firstSeen !== undefined && r.ts - firstSeen <= rule.windowS) continue;
    const afterCommit = afterCommitFault(r, rule);
    if (key !== null && (r.status < 500 || afterCommit)) stored.set(key, r.ts);
    if ((r.status >= 200 && r.status < 300) || afterCommit) out.push(r);
  }
  return out;
}

/** Whether a call answered 5xx by a fault that lets the write commit first. */
export function afterCommitFault(r: RequestLogEntry, rule: Pick<CommittedWriteRule, "afterCommitFaults">): boolean {
  return r.status >= 500 && r.faults.some((f) => rule.afterCommitFaults.includes(f));
}
