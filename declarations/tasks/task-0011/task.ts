import { type ChangeRow, ChangeRowSchema, changeLogProblems, changesBetween } from "../shared/change-log.ts";
import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { compareRows, expectedRows, fewIds, outputRows, type MirrorRow, byLabel, mirrorOutputs } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { answered2xx } from "../../../evidence/conduct.ts";
import { objects } from "../shared/rows.ts";
import { recordsBehind } from "../shared/mirror-lag.ts";
import { commandsRanOk, usableRun } from "../shared/command-runs.ts";
import { authentic, authenticEvents, deliveries } from "../shared/deliveries.ts";

const LOG = "changes.json";
const FILES = ["candidates.json", "applications.json", LOG];
const ENTITY_FILES = [
  ["candidate", "candidates.json"],
  ["application", "applications.json"],
] as const;
type Entity = (typeof ENTITY_FILES)[number][0];
const ENTITIES: Entity[] = ENTITY_FILES.map(([entity]) => entity);
/** How the details speak of the change log. */
const WORDS = { vendor: "TalentForge", verb: "logged", delivered: "authentically delivered" };

/**
 * Faults of the storm scenario: every third event thrice, the burst reversed, every credential
 * revoked after four requests, and a 429 window (two seconds) after twenty.
 */
export const STORM_FAULTS = ["tf-duplicate-storm", "tf-reversed-burst", "tf-session-revoked", "tf-burst-429"];
const REVOKED = "tf-session-revoked";
/** Faults of the reconcile scenario: the second event's only delivery is a forgery, the third also arrives stale. */
export const GAP_FAULTS = ["tf-duplicate-storm", "tf-drop-second-event", "tf-forged-delivery", "tf-stale-delivery"];

/** One row of the change log, as the ticket defines it. */

const updatedField = (vendor: Vendor) => vendor.incremental?.field ?? "updated_at";

/** Whether a run exited 0 and left every output readable: the drive stops early otherwise. */
export const usable = (run: ConnectorRun): boolean => usableRun(run, FILES);

/** Plumbing (0/-1): every command of the scenario ran, exited 0 and left readable outputs. */
const runsOk = (c: CheckRecorder, name: string, e: ScenarioEvidence, labels: string[]): boolean => commandsRanOk(c, name, e, labels, FILES);

/** The mirror an entity's file must hold at a snapshot: every record, deleted ones flagged (TalentForge lists them). */
function truth(s: Snapshot, entity: Entity, vendor: Vendor): Map<string, MirrorRow> {
  return expectedRows(s, entity, { updatedField: updatedField(vendor), seen: new Set((s.entities[entity] ?? []).map((r) => r.id)) });
}

const mirrorOf = (run: ConnectorRun | undefined, entity: Entity) => objects(outputRows<MirrorRow>(run, ENTITY_FILES.find(([x]) => x === entity)![1]));
/** Change-log keys of what changed between two snapshots: each record's new version, once. */
const changesBetweenOf = (a: Snapshot, b: Snapshot, vendor: Vendor) => changesBetween(a, b, ENTITIES, updatedField(vendor));

/** Every event TalentForge delivered authentically was acknowledged by one of its authentic deliveries. */
function acknowledged(c: CheckRecorder, name: string, e: ScenarioEvidence, maxSkewS: number): void {
  const genuine = (e.webhooks.ats ?? []).filter((d) => authentic(d, maxSkewS));
  if (!genuine.length) return;
  const events = new Set(genuine.map((d) => d.eventId));
  const acked = new Set(genuine.filter((d) => answered2xx(d.responseCode)).map((d) => d.eventId));
  const never = [...events].filter((id) => !acked.has(id));
  c.check(name, never.length === 0, {
    basis: { ticket: "Acknowledge (2xx) an event once it is safely on disk." },
    level: "l2",
    detail: never.length ? `${never.length} of ${events.size} events never acknowledged, TalentForge gave up on them (${fewIds(never)})` : `${events.size} events, each acknowledged`,
  });
}

/** Single-record read paths of the mirrored entities, as patterns. */
function readPatterns(vendor: Vendor): RegExp[] {
  return vendor.resources.filter((r) => (ENTITIES as string[]).includes(r.name) && r.get).map((r) => new RegExp(`^${r.get!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:id/, "[^/]+")}$`));
}

export default defineTask({
  id: "task-0011",
  title: "TalentForge change feed: id-only webhooks into a mirror and an exactly-once change log, through a duplicate storm, a revoked session and a lost event",
  kind: "build",
  roles: { ats: { vendor: "talentforge", checkpoint: 0 } },
  seed: 5,
  docsProfile: "stale",
  surfaces: ["webhooks", "polling"],
  primaryMechanic: "webhook_duplicate_storm_idempotency",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "serve"] },
  outputs: { ...mirrorOutputs(["candidates.json", "applications.json"]), [LOG]: jsonRows(ChangeRowSchema) },
  timeLimitS: 30,
  scenarios: [
    {
      name: "duplicate_storm",
      judge: (e, c, ctx) => {
        if (!runsOk(c, "storm_runs_ok", e, ["sync", "serve"])) return;
        const vendor = ctx.vendors.ats;
        const maxSkewS = vendor.webhooks?.maxSkewS ?? 300;
        const serve = byLabel(e, "serve");
        const [cp0, cp1, cp2] = ["cp0", "cp1", "cp2"].map((label) => e.snapshots[label].ats);

        for (const entity of ENTITIES) {
          const cmp = compareRows(mirrorOf(serve, entity), truth(cp2, entity, vendor));
          c.check(`storm_${entity}s_match`, cmp.ok, {
            basis: { ticket: "after a stretch of listening the mirror and the log reflect every event TalentForge delivered, each change logged once" },
            pass: 2,
            mandatory: true,
            detail: cmp.detail,
          });
        }

        const expected = new Map([...changesBetweenOf(cp0, cp1, vendor), ...changesBetweenOf(cp1, cp2, vendor)]);
        const events = authenticEvents(deliveries(e, "ats"), maxSkewS);
        const problems = changeLogProblems(objects(outputRows<ChangeRow>(serve, LOG)), expected, events, WORDS);
        c.check("storm_each_change_logged_once", problems.length === 0, {
          basis: { ticket: "Each new version of a record is logged once, never twice and never missed, and the mirror never goes back to an older version of a record." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: problems.length ? problems.join("; ") : `${expected.size} changes over two checkpoints, each logged once`,
        });

        // A redelivery costs no read: successful record reads stay within one per distinct event.
        const hookEpochs = new Set((e.epochs.ats ?? []).slice(1));
        const log = (e.webhooks.ats ?? []).filter((d) => hookEpochs.has(d.epoch));
        const dupes = log.filter((d) => d.duplicate);
        if (dupes.length) {
          const patterns = readPatterns(vendor);
          const reads = (e.requests.ats ?? []).filter((r) => hookEpochs.has(r.epoch) && r.method === "GET" && r.status === 200 && patterns.some((p) => p.test(r.path)));
          const distinct = new Set(log.filter((d) => authentic(d, maxSkewS)).map((d) => d.eventId));
          c.check("storm_redeliveries_cost_no_read", reads.length <= distinct.size, {
            basis: { ticket: "an event costs at most one read, a redelivery of an event already taken in costs none" },
            pass: 2,
            level: "l2",
            detail: `${reads.length} record reads for ${distinct.size} distinct events (${dupes.length} redeliveries)`,
          });
        }
        acknowledged(c, "storm_every_event_acknowledged", e, maxSkewS);

        // The revoked credentials: a whole new chain (token, then session), then reads resume; no hammering.
        const requests = [...(e.requests.ats ?? [])].sort((a, b) => a.seq - b.seq);
        const refused = requests.filter((r) => r.status === 403 && r.faults.includes(REVOKED));
        if (refused.length) {
          const mintPaths = vendor.auth.mints.map((m) => m.path);
          let at: RequestLogEntry | undefined = refused[0];
          for (const path of mintPaths) at = at && requests.find((r) => r.seq > at!.seq && r.method === "POST" && r.path === path && answered2xx(r.status));
          const resumed = at && requests.find((r) => r.seq > at!.seq && !mintPaths.includes(r.path) && r.status === 200);
          c.check("storm_revoked_session_renewed", !!resumed && refused.length <= 3, {
            basis: { ticket: "The listener runs for weeks, and TalentForge's security rotations end integration sessions early now and then: the listener carries on without losing a delivery." },
            level: "l3",
            detail: !resumed
              ? `403 token_revoked at #${refused[0].seq}, and no read succeeded on a new token and session after it`
              : refused.length > 3
                ? `${refused.length} requests presented revoked credentials`
                : `403 token_revoked at #${refused[0].seq}; reads resumed at #${resumed.seq} on a new token and session`,
          });
        }
      },
    },
    {
      name: "lost_event_reconcile",
      judge: (e, c, ctx) => {
        if (!runsOk(c, "gap_runs_ok", e, ["sync", "serve", "reconcile", "rerun"])) return;
        const vendor = ctx.vendors.ats;
        const maxSkewS = vendor.webhooks?.maxSkewS ?? 300;
        const [serve, reconcile, rerun] = ["serve", "reconcile", "rerun"].map((l) => byLabel(e, l)!);
        const cp0 = e.snapshots.cp0.ats;
        const cp1 = e.snapshots.cp1.ats;
        const expected = changesBetweenOf(cp0, cp1, vendor);
        const events = authenticEvents(deliveries(e, "ats"), maxSkewS);

        // From the webhooks alone: right, except at most one record still at its old version
        // (or not there yet) because its only delivery could not be trusted.
        const { behind, problems: phase } = recordsBehind(ENTITIES, (entity) => ({ rows: mirrorOf(serve, entity), want: truth(cp1, entity, vendor), old: truth(cp0, entity, vendor) }));
        if (behind.size > 1) phase.push(`${behind.size} records behind TalentForge after the webhooks (${fewIds([...behind.keys()])})`);
        const serveExpected = new Map([...expected].filter(([, v]) => !behind.has(v.id)));
        const serveLog = objects(outputRows<ChangeRow>(serve, LOG));
        phase.push(...changeLogProblems(serveLog, serveExpected, events, WORDS).map((p) => `change log: ${p}`));
        c.check("gap_webhook_phase_sound", phase.length === 0, {
          basis: { ticket: "after a stretch of listening the mirror and the log reflect every event TalentForge delivered, each change logged once" },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: phase.length ? phase.join("; ") : `mirror and log right from the webhooks alone${behind.size ? ` (${[...behind.keys()][0]} awaits the sync)` : ""}`,
        });

        for (const entity of ENTITIES) {
          const cmp = compareRows(mirrorOf(reconcile, entity), truth(cp1, entity, vendor));
          c.check(`gap_reconciled_${entity}s_match`, cmp.ok, {
            basis: { ticket: "A sync after a stretch of listening closes every gap: afterwards the mirror matches TalentForge exactly and the log holds every change once." },
            pass: 2,
            mandatory: true,
            detail: cmp.detail,
          });
        }

        const finalLog = objects(outputRows<ChangeRow>(reconcile, LOG));
        const logIssues = changeLogProblems(finalLog, expected, events, WORDS);
        const kept = serveLog.every((r, i) => JSON.stringify(finalLog[i]) === JSON.stringify(r));
        if (!kept) logIssues.push("the sync rewrote rows the listener had logged");
        c.check("gap_change_log_exactly_once", logIssues.length === 0, {
          basis: { ticket: "A sync after a stretch of listening closes every gap: afterwards the mirror matches TalentForge exactly and the log holds every change once." },
          pass: 2,
          mandatory: true,
          detail: logIssues.length ? logIssues.join("; ") : `${expected.size} changes, each logged once; the listener's rows kept as they were`,
        });

        // The change no trustworthy delivery carried: brought in by the sync, once, as a poll.
        const added = finalLog.slice(serveLog.length);
        const recovered: string[] = [];
        const lost: string[] = [];
        for (const [id, entity] of behind) {
          const rows = added.filter((r) => r.entity === entity && String(r.source_id) === id);
          if (rows.length === 1 && rows[0].via === "poll") recovered.push(id);
          else lost.push(`${id} (${rows.length} rows added by the sync${rows.length === 1 ? `, via ${JSON.stringify(rows[0].via)}` : ""})`);
        }
        c.check("gap_missed_change_recovered_once", lost.length === 0, {
          basis: { ticket: "A sync after a stretch of listening closes every gap: afterwards the mirror matches TalentForge exactly and the log holds every change once." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: lost.length ? lost.join("; ") : recovered.length ? `${recovered.join(", ")} caught up by the sync, logged once as a poll` : "nothing was left behind by the webhooks",
        });

        // A second sync right after finds nothing new (the filter is at-or-after: the boundary comes back).
        const same = FILES.every((f) => JSON.stringify(outputRows(rerun, f)) === JSON.stringify(outputRows(reconcile, f)));
        c.check("gap_rerun_logs_nothing_new", same, {
          basis: { ticket: "A sync run again straight after changes nothing." },
          level: "l3",
          detail: same ? "the second sync changed nothing" : `the second sync changed the outputs (${objects(outputRows<ChangeRow>(rerun, LOG)).length - finalLog.length} more change rows)`,
        });

        // The syncs read only what changed: the real change filter, with a watermark close to the last poll.
        const inc = vendor.incremental;
        const epoch = (e.epochs.ats ?? []).at(-1);
        const lists = ENTITIES.flatMap((entity) => {
          const path = vendor.resources.find((r) => r.name === entity)?.list;
          return (e.requests.ats ?? [])
            .filter((r) => r.epoch === epoch && r.method === "GET" && r.path === path && r.status < 400 && !r.query[vendor.paging.style === "cursor" ? vendor.paging.cursorParam : ""])
            .map((r) => ({ entity, r }));
        });
        if (inc && lists.length) {
          const wide: string[] = [];
          for (const { entity, r } of lists) {
            const raw = r.query[inc.param];
            const mark = raw === undefined ? Number.NaN : Date.parse(raw);
            if (!Number.isFinite(mark)) {
              wide.push(`#${r.seq} ${r.path} without ${inc.param} (has: ${Object.keys(r.query).join(", ") || "no parameters"})`);
              continue;
            }
            const changed = [...expected.values()].filter((v) => v.entity === entity).length;
            const selected = (cp1.entities[entity] ?? []).filter((x) => Date.parse(String(x.record[inc.field])) >= mark).length;
            if (selected > 2 * changed + 10) wide.push(`#${r.seq} ${r.path} ${inc.param}=${raw} selects ${selected} ${entity}s for ${changed} changes`);
          }
          c.check("gap_syncs_read_only_changes", wide.length === 0, {
            basis: { ticket: "Later syncs read only what changed since the previous one." },
            pass: 2,
            mandatory: true,
            level: "l2",
            detail: wide.length ? wide.slice(0, 3).join("; ") : `${lists.length} list reads, each through ${inc.param} from the last poll`,
          });
        }
        acknowledged(c, "gap_every_event_acknowledged", e, maxSkewS);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials belong in headers",
    no_secrets_echoed_to_vendor: "credentials belong in headers",
    webhook_bad_signature_rejected: "nothing reaches the mirror or the log unless the delivery provably comes from TalentForge, now",
    webhook_stale_timestamp_rejected: "nothing reaches the mirror or the log unless the delivery provably comes from TalentForge, now",
    token_reused_not_reminted: "tokens are reused for their lifetime",
    retry_after_honored: "when TalentForge says to wait, wait",
    no_full_resync_after_incremental: "Later syncs read only what changed since the previous one.",
  },
});
