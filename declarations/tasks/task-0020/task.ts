import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import { compareRows, expectedRows, fewIds, lastError, outputRows, mirrorOutputs, outputProblem, byLabel } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { answered2xx } from "../../../evidence/conduct.ts";
import { type Delivery, authentic, deliveries } from "../shared/deliveries.ts";
import { mirrorRows } from "../shared/rows.ts";
import { recordCommandsRan, runProblems } from "../shared/command-runs.ts";

const FILES = ["candidates.json", "applications.json", "events.json"];
const ENTITY_FILES = [
  ["candidate", "candidates.json"],
  ["application", "applications.json"],
] as const;

/** One row of the connector's event ledger. */
interface LedgerRow {
  event_id: string;
  type?: string;
  source_id?: string;
  via?: string;
}

/** What the vendor declares about its webhooks: the judge reads them, never a constant. */
function hooks(ctx: JudgeContext): { maxSkewS: number; retries: number; deadLetterPath: string } {
  const w = ctx.vendors.ats?.webhooks;
  // Retries while the ack-body protocol is in force: the schedule, cut short by maxAttempts.
  const retries = Math.min(w?.retrySchedule.length ?? 0, (w?.ack?.maxAttempts ?? Number.POSITIVE_INFINITY) - 1);
  return { maxSkewS: w?.maxSkewS ?? 300, retries, deadLetterPath: w?.ack?.deadLetterPath ?? "" };
}

/**
 * Plumbing (0/-1): every command of the scenario exited 0 (each listener run
 * included) and the dump wrote readable outputs.
 */
function runsOk(c: CheckRecorder, name: string, e: ScenarioEvidence, commands: string[], listeners: number): boolean {
  const problems = runProblems(e, commands, []);
  const serves = e.runs.filter((r) => r.label === "serve");
  if (serves.length !== listeners) problems.push(`the listener ran ${serves.length} times, not ${listeners}`);
  for (const s of serves) if (s.exitCode !== 0) problems.push(`serve exited ${s.exitCode}: ${lastError(s.stderrTail)}`);
  const dump = byLabel(e, "dump");
  if (dump) for (const p of FILES.map((f) => outputProblem(dump, f))) if (p) problems.push(`dump: ${p}`);
  return recordCommandsRan(c, name, problems);
}

/** Ids the mirror is expected to know: everything in the final snapshot except records already deleted at the back-fill. */
function seenIds(start: Snapshot, end: Snapshot, entity: string): Set<string> {
  const goneBefore = new Set((start.entities[entity] ?? []).filter((r) => r.deleted).map((r) => r.id));
  return new Set((end.entities[entity] ?? []).map((r) => r.id).filter((id) => !goneBefore.has(id)));
}

/**
 * The mirror against the final snapshot. A record already deleted at the
 * back-fill may sit in the mirror as deleted (a late retry of its delete
 * event can reach a listener started afterwards); shown live, it is wrong.
 */
function mirrorChecks(c: CheckRecorder, prefix: string, dump: ConnectorRun | undefined, start: Snapshot, end: Snapshot, level: "l1" | "l3"): void {
  for (const [entity, file] of ENTITY_FILES) {
    const goneBefore = new Set((start.entities[entity] ?? []).filter((r) => r.deleted).map((r) => r.id));
    const rows = mirrorRows(dump, file).filter((r) => !(goneBefore.has(String(r.source_id)) && r.is_deleted === true));
    const cmp = compareRows(rows, expectedRows(end, entity, { updatedField: "updated_at", seen: seenIds(start, end, entity) }));
    c.check(`${prefix}_${entity}s_match`, cmp.ok, {
      basis: { ticket: "Every event takes effect exactly once, and the mirror never goes back to an older state of a record, however late an event reaches us." },
      pass: 2,
      fail: 0,
      mandatory: true,
      level: entity === "candidate" ? level : "l1",
      detail: cmp.detail,
    });
  }
}

/**
 * Events that reached the connector or its dead-letter queue: an authentic
 * delivery the listener answered, or one whose every attempt failed while the
 * ack-body protocol was in force (dead-lettered; the drain runs last). An
 * event TalentLoop gave up on before the switch reached nobody.
 */
function reachable(log: Delivery[], maxSkewS: number, retries: number): Set<string> {
  const out = new Set<string>();
  for (const d of log) {
    if (!authentic(d, maxSkewS)) continue;
    if (d.responseCode !== null || deadLettering(d, retries)) out.add(d.eventId);
  }
  return out;
}

/** The attempt after which TalentLoop dead-letters its event: unacknowledged under the protocol, past the last retry. */
function deadLettering(d: Delivery, retries: number): boolean {
  return d.acked === false && !d.duplicate && !d.tampered && !d.skewS && d.attempt > retries;
}

/**
 * The ledger lists every event that reached the connector, live or through
 * the dead-letter queue, exactly once, and nothing that only a forged or
 * stale delivery carried.
 */
function ledgerCheck(c: CheckRecorder, name: string, dump: ConnectorRun | undefined, expected: Set<string>, opts: { pass: 1 | 2; mandatory: boolean; level: "l1" | "l3" }): void {
  const ledger = outputRows<LedgerRow>(dump, "events.json") ?? [];
  const counts = new Map<string, number>();
  for (const row of ledger) {
    const id = row && typeof row === "object" ? String(row.event_id) : String(row);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const twice = [...counts].filter(([, n]) => n > 1).map(([id, n]) => `${id}×${n}`);
  const missing = [...expected].filter((id) => !counts.has(id));
  const extra = [...counts.keys()].filter((id) => !expected.has(id));
  const ok = expected.size > 0 && !twice.length && !missing.length && !extra.length;
  const detail = ok
    ? `${expected.size} events, each recorded once`
    : [
        expected.size === 0 && "no event was delivered",
        twice.length && `${twice.length} recorded more than once (${twice.slice(0, 3).join(", ")})`,
        missing.length && `${missing.length} delivered or dead-lettered but not recorded (${fewIds(missing)})`,
        extra.length && `${extra.length} recorded without an authentic delivery (${fewIds(extra)})`,
      ]
        .filter(Boolean)
        .join("; ");
  c.check(name, ok, {
    basis: { ticket: "one row per TalentLoop event taken in, live or from the dead-letter queue, in the order taken in, including events that turned out to change nothing" },
    pass: opts.pass,
    fail: 0,
    mandatory: opts.mandatory,
    level: opts.level,
    detail,
  });
}

/**
 * Once the ack-body protocol is in force (the log's `acked` is set), every
 * authentic delivery the receiver answered must have acknowledged its event.
 * Recorded only when such answered deliveries exist.
 */
function ackCheck(c: CheckRecorder, name: string, log: Delivery[], maxSkewS: number): void {
  const judged = log.filter((d) => d.acked !== null && d.responseCode !== null && authentic(d, maxSkewS));
  if (!judged.length) return;
  const unacked = judged.filter((d) => d.acked !== true);
  const events = new Set(unacked.map((d) => d.eventId));
  c.check(name, unacked.length === 0, {
    basis: { ticket: "Confirm what you have safely taken in, in the way TalentLoop counts it, so TalentLoop neither resends it nor dead-letters it." },
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l2",
    detail: unacked.length
      ? `${unacked.length} of ${judged.length} answered deliveries did not acknowledge their event (${events.size} events, first ${unacked[0].eventId} answered ${unacked[0].responseCode}); TalentLoop redelivers and then dead-letters them`
      : `${judged.length} answered deliveries, each acknowledged`,
  });
}

/** Before the switch a bare 2xx acknowledges: every authentic delivery then must have been answered 2xx. */
function preSwitchCheck(c: CheckRecorder, name: string, log: Delivery[], maxSkewS: number): void {
  const judged = log.filter((d) => d.acked === null && authentic(d, maxSkewS));
  if (!judged.length) return;
  const refused = judged.filter((d) => !answered2xx(d.responseCode));
  c.check(name, refused.length === 0, {
    basis: { ticket: "It runs across the switch date, so it must confirm deliveries correctly both before and after it." },
    level: "l1",
    detail: refused.length
      ? `${refused.length} of ${judged.length} authentic deliveries before the switch answered ${[...new Set(refused.map((d) => d.responseCode))].join("/")}`
      : `${judged.length} authentic deliveries before the switch answered 2xx`,
  });
}

export default defineTask({
  id: "task-0020",
  title: "TalentLoop webhook mirror through the switch to acknowledgement bodies, with a dead-letter drain",
  kind: "build",
  roles: { ats: { vendor: "talentloop", checkpoint: 2 } },
  seed: 20,
  docsProfile: "stale",
  surfaces: ["webhooks", "polling"],
  primaryMechanic: "ack_body_webhooks_dlq",
  entry: { command: ["node", "src/main.ts"], subcommands: ["backfill", "serve", "drain", "dump"] },
  outputs: {
    ...mirrorOutputs(["candidates.json", "applications.json"]),
    "events.json": jsonRows(z.looseObject({ event_id: z.string(), type: z.string(), source_id: z.string() })),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // The listener runs across the switch date: plain 2xx before it, the ack body from it.
      name: "ack_pipeline_freshness",
      judge: (e, c, ctx) => {
        if (!runsOk(c, "ack_runs_ok", e, ["backfill", "drain", "dump"], 1)) return;
        const { maxSkewS, retries } = hooks(ctx);
        const dump = byLabel(e, "dump");
        const log = deliveries(e, "ats");
        mirrorChecks(c, "ack", dump, e.snapshots.start.ats, e.snapshots.end.ats, "l1");
        ledgerCheck(c, "ack_events_recorded_once", dump, reachable(log, maxSkewS, retries), { pass: 2, mandatory: true, level: "l1" });
        preSwitchCheck(c, "bare_2xx_before_switch", log, maxSkewS);
        ackCheck(c, "ack_pipeline_freshness", log, maxSkewS);
        const forged = log.filter((d) => !authentic(d, maxSkewS));
        if (forged.length) {
          const taken = forged.filter((d) => d.acked === true || (d.acked === null && answered2xx(d.responseCode)));
          c.check("forged_deliveries_not_acknowledged", taken.length === 0, {
            basis: { ticket: "Refuse anything else with a 4xx, and never confirm it." },
            level: "l3",
            detail: taken.length
              ? `${taken.length} of ${forged.length} forged or stale deliveries were acknowledged (${fewIds(taken.map((d) => d.eventId))})`
              : `${forged.length} forged or stale deliveries refused`,
          });
        }
      },
    },
    {
      // The listener is down across the switch: the events of that day dead-letter, newer ones
      // arrive live once it is back, and the drain comes last.
      name: "dlq_drain_recovery",
      judge: (e, c, ctx) => {
        if (!runsOk(c, "drain_runs_ok", e, ["backfill", "drain", "drain_again", "dump"], 2)) return;
        // Epochs: the task's start, the day before the switch (no listener), the switch day (outage), the day after.
        const { maxSkewS, retries, deadLetterPath } = hooks(ctx);
        const dump = byLabel(e, "dump");
        const log = deliveries(e, "ats");
        mirrorChecks(c, "drained", dump, e.snapshots.start.ats, e.snapshots.end.ats, "l3");
        ledgerCheck(c, "drained_events_recorded_once", dump, reachable(log, maxSkewS, retries), { pass: 2, mandatory: true, level: "l1" });
        // Acknowledgements are judged where the listener was up after the switch (the last epoch), not in the outage.
        ackCheck(
          c,
          "ack_after_outage",
          log.filter((d) => d.epoch === e.epochs.ats?.at(-1)),
          maxSkewS,
        );

        // The outage epoch: every attempt went unanswered, so its events went to the dead-letter queue.
        const outage = e.epochs.ats?.[2];
        const dead = [...new Set(log.filter((d) => d.epoch === outage && deadLettering(d, retries)).map((d) => d.eventId))];
        if (!dead.length) return;
        const ledger = outputRows<LedgerRow>(dump, "events.json") ?? [];
        const counts = new Map<string, number>();
        for (const row of ledger) if (row && typeof row === "object") counts.set(String(row.event_id), (counts.get(String(row.event_id)) ?? 0) + 1);
        const lost = dead.filter((id) => !counts.has(id));
        const twice = dead.filter((id) => (counts.get(id) ?? 0) > 1);
        const drained = (e.requests.ats ?? []).some((r) => r.method === "GET" && r.path === deadLetterPath && r.status === 200);
        const ok = drained && !lost.length && !twice.length;
        c.check("dlq_drain_recovery", ok, {
          basis: { ticket: "Nothing TalentLoop dead-lettered may be lost: after `drain`, the mirror must match TalentLoop, deletes included, and a second `drain` must change nothing." },
          pass: 2,
          fail: 0,
          mandatory: true,
          level: "l3",
          detail: ok
            ? `${dead.length} dead-lettered events drained and recorded once`
            : [
                !drained && `the dead-letter queue (${deadLetterPath}) was never drained`,
                lost.length && `${lost.length} of ${dead.length} dead-lettered events never recorded (${fewIds(lost)})`,
                twice.length && `${twice.length} recorded more than once (${fewIds(twice)})`,
              ]
                .filter(Boolean)
                .join("; "),
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials belong in headers",
    no_secrets_echoed_to_vendor: "credentials belong in headers",
    webhook_bad_signature_rejected: "nothing reaches the mirror unless it provably comes from TalentLoop, now",
    webhook_stale_timestamp_rejected: "nothing reaches the mirror unless it provably comes from TalentLoop, now",
    token_reused_not_reminted: "reuse access tokens",
    retry_after_honored: "follow the documented rate limits",
  },
});
