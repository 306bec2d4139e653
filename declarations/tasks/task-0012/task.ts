import { type ChangeRow, ChangeRowSchema, changeKey, changeLogProblems, changesBetween } from "../shared/change-log.ts";
import { defineTask } from "../../schema/task.ts";
import type { Vendor } from "../../schema/vendor.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { RequestLogEntry } from "../../../evidence/logs.ts";
import type { CheckBasis, ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { compareRows, expectedRows, fewIds, outputRows, type MirrorRow, byLabel, mirrorOutputs } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { answered2xx } from "../../../evidence/conduct.ts";
import { objects } from "../shared/rows.ts";
import { recordsBehind } from "../shared/mirror-lag.ts";
import { commandsRanOk, usableRun } from "../shared/command-runs.ts";
import { authentic } from "../shared/deliveries.ts";

const JOURNAL = "changes.json";
const FILES = ["candidates.json", "applications.json", JOURNAL];
const ENTITY_FILES = [
  ["candidate", "candidates.json"],
  ["application", "applications.json"],
] as const;
type Entity = (typeof ENTITY_FILES)[number][0];
const ENTITIES: Entity[] = ENTITY_FILES.map(([entity]) => entity);
/** How the details speak of the change log. */
const WORDS = { vendor: "TalentForge", verb: "journalled", delivered: "delivered" };

/** Candidates' email served as email_address from checkpoint 2 on. */
const RENAMED = "tf-email-renamed";
/** Every credential issued so far revoked (403) after the third request of the cut-over epoch: mid-poll. */
const REVOKED_MID_POLL = "tf-session-revoked-mid-poll";
/** The same after the fourth request of the first epoch with events: mid-listening. */
const REVOKED = "tf-session-revoked";
/** The cut-over epoch: no webhook target yet when it opens, so nothing of it is ever announced. */
export const GAP_FAULTS = [RENAMED, REVOKED_MID_POLL];
/** The first events after the switch: the second one never delivered, every third one three times, a revoked session. */
export const SWITCH_FAULTS = [RENAMED, "tf-drop-second-event", "tf-duplicate-storm", REVOKED];

const updatedField = (vendor: Vendor) => vendor.incremental?.field ?? "updated_at";
const journalOf = (run: ConnectorRun | undefined) => objects(outputRows<ChangeRow>(run, JOURNAL));
const mirrorOf = (run: ConnectorRun | undefined, entity: Entity) => objects(outputRows<MirrorRow>(run, ENTITY_FILES.find(([x]) => x === entity)![1]));
/** Change-log keys of what changed between two snapshots: each record's new version, once. */
const changesBetweenOf = (a: Snapshot, b: Snapshot, vendor: Vendor) => changesBetween(a, b, ENTITIES, updatedField(vendor));

/** Whether a run exited 0 and left every output readable: the drive stops early otherwise. */
export const usable = (run: ConnectorRun): boolean => usableRun(run, FILES);

/** Plumbing (0/-1): every command ran, exited 0 and left readable outputs. */
const runsOk = (c: CheckRecorder, name: string, e: ScenarioEvidence, labels: string[]): boolean => commandsRanOk(c, name, e, labels, FILES);

/** The mirror an entity's file must hold at a snapshot: every record, deleted ones flagged, fields under their documented names. */
function truth(s: Snapshot, entity: Entity, vendor: Vendor): Map<string, MirrorRow> {
  return expectedRows(s, entity, { updatedField: updatedField(vendor), seen: new Set((s.entities[entity] ?? []).map((r) => r.id)) });
}

/** Whether a later journal keeps an earlier one's rows exactly, in place. */
const keeps = (later: ChangeRow[], earlier: ChangeRow[]) => earlier.every((r, i) => JSON.stringify(later[i]) === JSON.stringify(r));

/** After a 403 token_revoked: a whole new chain (token, then session), then a successful read; at most three refused requests. */
function renewed(c: CheckRecorder, name: string, e: ScenarioEvidence, vendor: Vendor, fault: string, epoch: number | undefined, what: string, survived = true): void {
  const requests = (e.requests.ats ?? []).filter((r) => r.epoch === epoch).sort((a, b) => a.seq - b.seq);
  const refused = requests.filter((r) => r.status === 403 && r.faults.includes(fault));
  if (!refused.length) return;
  const mintPaths = vendor.auth.mints.map((m) => m.path);
  let at: RequestLogEntry | undefined = refused[0];
  for (const path of mintPaths) at = at && requests.find((r) => r.seq > at!.seq && r.method === "POST" && r.path === path && answered2xx(r.status));
  const resumed = at && requests.find((r) => r.seq > at!.seq && !mintPaths.includes(r.path) && r.status === 200);
  c.check(name, survived && !!resumed && refused.length <= 3, {
    basis: { ticket: "TalentForge's security team rotates integration sessions early now and then, including in the middle of a poll: every command carries on through that." },
    level: "l3",
    detail: !survived
      ? `403 token_revoked at #${refused[0].seq} ${what}, and the command it hit did not finish`
      : !resumed
        ? `403 token_revoked at #${refused[0].seq} ${what}, and no read succeeded on a new token and session after it`
        : refused.length > 3
          ? `${refused.length} requests presented revoked credentials`
          : `403 token_revoked at #${refused[0].seq} ${what}; reads resumed at #${resumed.seq} on a new token and session`,
  });
}

/**
 * The polls of an epoch read only what changed: every first-page list read
 * carries the real change filter with a watermark that selects at most about
 * twice the records that changed.
 */
function boundedReads(
  c: CheckRecorder,
  name: string,
  e: ScenarioEvidence,
  vendor: Vendor,
  epoch: number | undefined,
  at: Snapshot,
  changes: Map<string, { entity: Entity }>,
  what: string,
  basis: CheckBasis,
): void {
  const inc = vendor.incremental;
  if (!inc) return;
  const cursorParam = vendor.paging.style === "cursor" ? vendor.paging.cursorParam : "";
  const lists = ENTITIES.flatMap((entity) => {
    const path = vendor.resources.find((r) => r.name === entity)?.list;
    return (e.requests.ats ?? []).filter((r) => r.epoch === epoch && r.method === "GET" && r.path === path && r.status < 400 && !r.query[cursorParam]).map((r) => ({ entity, r }));
  });
  if (!lists.length) return;
  const wide: string[] = [];
  for (const { entity, r } of lists) {
    const raw = r.query[inc.param];
    const mark = raw === undefined ? Number.NaN : Date.parse(raw);
    if (!Number.isFinite(mark)) {
      wide.push(`#${r.seq} ${r.path} without ${inc.param} (has: ${Object.keys(r.query).join(", ") || "no parameters"})`);
      continue;
    }
    const changed = [...changes.values()].filter((v) => v.entity === entity).length;
    const selected = (at.entities[entity] ?? []).filter((x) => Date.parse(String(x.record[inc.field])) >= mark).length;
    if (selected > 2 * changed + 10) wide.push(`#${r.seq} ${r.path} ${inc.param}=${raw} selects ${selected} ${entity}s for ${changed} changes`);
  }
  c.check(name, wide.length === 0, {
    basis,
    pass: 2,
    mandatory: true,
    level: "l2",
    detail: wide.length ? wide.slice(0, 3).join("; ") : `${lists.length} list reads ${what}, each through ${inc.param} from the last poll's watermark`,
  });
}

export default defineTask({
  id: "task-0012",
  title: "TalentForge cut-over: retire a nightly poll for id-only webhooks with no gap and no double-apply, through a revoked session mid-poll, a renamed field and a lost first event",
  kind: "migrate",
  roles: { ats: { vendor: "talentforge", checkpoint: 0 } },
  seed: 7,
  docsProfile: "stale",
  surfaces: ["webhooks", "polling"],
  primaryMechanic: "poll_to_event_source_switch",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "serve", "cutover", "reconcile"] },
  outputs: { ...mirrorOutputs(["candidates.json", "applications.json"]), [JOURNAL]: jsonRows(ChangeRowSchema) },
  timeLimitS: 30,
  scenarios: [
    {
      name: "cutover",
      judge: (e, c, ctx) => {
        // Plumbing over every command; the phases are judged whenever the drive got through them
        // (a failed run is judged by the outputs it left).
        const labels = ["poll_baseline", "poll_last", "cutover", "cutover_again", "serve", "reconcile", "reconcile_again"];
        runsOk(c, "cutover_runs_ok", e, labels);
        if (labels.some((l) => !byLabel(e, l)) || !["cp1", "cp2", "cp3"].every((s) => e.snapshots[s]?.ats)) return;
        const vendor = ctx.vendors.ats;
        const maxSkewS = vendor.webhooks?.maxSkewS ?? 300;
        const [lastPoll, cut, again, serve, rec, recAgain] = ["poll_last", "cutover", "cutover_again", "serve", "reconcile", "reconcile_again"].map((l) => byLabel(e, l)!);
        const { cp1, cp2, cp3 } = { cp1: e.snapshots.cp1.ats, cp2: e.snapshots.cp2.ats, cp3: e.snapshots.cp3.ats };
        const [, , gapEpoch, switchEpoch] = e.epochs.ats ?? [];
        const legacy = journalOf(lastPoll);
        const gap = changesBetweenOf(cp1, cp2, vendor);
        const first = changesBetweenOf(cp2, cp3, vendor);
        const legacyKeys = new Map(legacy.map((r) => [changeKey(r.entity, r.source_id, r.updated_at, r.is_deleted), null]));
        const deliveries = e.webhooks.ats ?? [];
        const events = new Set(deliveries.filter((d) => authentic(d, maxSkewS)).map((d) => d.eventId));

        // 1. The cut-over: the gap closed, the nightly poll's journal kept, fields under the names downstream reads.
        for (const entity of ENTITIES) {
          const cmp = compareRows(mirrorOf(cut, entity), truth(cp2, entity, vendor));
          c.check(`cutover_${entity}s_match`, cmp.ok, {
            basis: { ticket: "after the cut-over the mirror matches TalentForge and the journal holds every change since the nightly poll's baseline exactly once" },
            pass: 2,
            mandatory: true,
            detail: cmp.detail,
          });
        }
        const cutJournal = journalOf(cut);
        const cutIssues = changeLogProblems(cutJournal, new Map([...legacyKeys, ...gap]), events, WORDS);
        if (!keeps(cutJournal, legacy)) cutIssues.push("the nightly poll's journal rows were not kept as they were");
        c.check("cutover_gap_journalled_once", cutIssues.length === 0, {
          basis: { ticket: "after the cut-over the mirror matches TalentForge and the journal holds every change since the nightly poll's baseline exactly once" },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: cutIssues.length ? cutIssues.join("; ") : `${legacy.length} rows of the nightly poll kept; the ${gap.size} changes no event announced journalled once`,
        });
        const same = FILES.every((f) => JSON.stringify(outputRows(again, f)) === JSON.stringify(outputRows(cut, f)));
        c.check("cutover_rerun_changes_nothing", same, {
          basis: { ticket: "If it fails, or someone is unsure it ran, platform runs it again: a second run must be harmless." },
          level: "l2",
          detail: same ? "the second cut-over changed nothing" : `the second cut-over changed the outputs (${journalOf(again).length - cutJournal.length} more journal rows)`,
        });
        boundedReads(c, "cutover_reads_only_the_gap", e, vendor, gapEpoch, cp2, gap, "by the cut-over", {
          ticket: "it reads only what changed since the previous poll (the last nightly `sync`)",
        });
        renewed(c, "cutover_revoked_session_renewed", e, vendor, REVOKED_MID_POLL, gapEpoch, "during the cut-over poll", usable(cut));

        // 2. The first events after the switch: everything right from the webhooks alone, except at
        // most one record whose only event never came, and the cut-over's rows kept.
        const { behind, problems: phase } = recordsBehind(ENTITIES, (entity) => ({ rows: mirrorOf(serve, entity), want: truth(cp3, entity, vendor), old: truth(cp2, entity, vendor) }));
        if (behind.size > 1) phase.push(`${behind.size} records behind TalentForge after the events (${fewIds([...behind.keys()])})`);
        const serveJournal = journalOf(serve);
        const serveExpected = new Map([...legacyKeys, ...gap, ...[...first].filter(([, v]) => !behind.has(v.id))]);
        phase.push(...changeLogProblems(serveJournal, serveExpected, events, WORDS).map((p) => `journal: ${p}`));
        if (!keeps(serveJournal, cutJournal)) phase.push("the listener lost or rewrote rows the cut-over had journalled");
        c.check("switch_events_applied_once", phase.length === 0, {
          basis: { ticket: "TalentForge redelivers; an event already taken in changes nothing." },
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: phase.length ? phase.join("; ") : `mirror and journal right from the events alone${behind.size ? ` (${[...behind.keys()][0]} awaits the reconciliation)` : ""}`,
        });
        const genuine = deliveries.filter((d) => authentic(d, maxSkewS));
        if (genuine.length) {
          const acked = new Set(genuine.filter((d) => answered2xx(d.responseCode)).map((d) => d.eventId));
          const never = [...new Set(genuine.map((d) => d.eventId))].filter((id) => !acked.has(id));
          c.check("switch_every_event_acknowledged", never.length === 0, {
            basis: { ticket: "Acknowledge (2xx) an event once it is safely on disk." },
            level: "l2",
            detail: never.length ? `${never.length} events never acknowledged (${fewIds(never)})` : `${acked.size} events, each acknowledged`,
          });
        }
        renewed(c, "switch_revoked_session_renewed", e, vendor, REVOKED, switchEpoch, "while listening");

        // 3. The reconciliation poll: the lost event's change found once, nothing logged twice, bounded.
        for (const entity of ENTITIES) {
          const cmp = compareRows(mirrorOf(rec, entity), truth(cp3, entity, vendor));
          c.check(`reconcile_${entity}s_match`, cmp.ok, {
            basis: { ticket: "After a stretch of listening and a reconciliation, the same holds again, including whatever TalentForge never delivered." },
            pass: 2,
            mandatory: true,
            detail: cmp.detail,
          });
        }
        const recJournal = journalOf(rec);
        const recIssues = changeLogProblems(recJournal, new Map([...legacyKeys, ...gap, ...first]), events, WORDS);
        if (!keeps(recJournal, serveJournal)) recIssues.push("the reconciliation rewrote rows the listener had journalled");
        c.check("reconcile_journal_exactly_once", recIssues.length === 0, {
          basis: { ticket: "After a stretch of listening and a reconciliation, the same holds again, including whatever TalentForge never delivered." },
          pass: 2,
          mandatory: true,
          detail: recIssues.length ? recIssues.join("; ") : `${legacy.length + gap.size + first.size} changes since the baseline, each journalled once`,
        });
        const added = recJournal.slice(serveJournal.length);
        const lost: string[] = [];
        for (const [id, entity] of behind) {
          const rows = added.filter((r) => r.entity === entity && String(r.source_id) === id);
          if (rows.length !== 1 || rows[0].via !== "poll") lost.push(`${id} (${rows.length} rows added by the reconciliation)`);
        }
        if (behind.size) {
          c.check("reconcile_lost_event_recovered", lost.length === 0, {
            basis: { ticket: "After a stretch of listening and a reconciliation, the same holds again, including whatever TalentForge never delivered." },
            pass: 2,
            level: "l3",
            detail: lost.length ? lost.join("; ") : `${[...behind.keys()].join(", ")} caught up by the reconciliation, journalled once as a poll`,
          });
        }
        const unchanged = FILES.every((f) => JSON.stringify(outputRows(recAgain, f)) === JSON.stringify(outputRows(rec, f)));
        c.check("reconcile_rerun_changes_nothing", unchanged, {
          basis: { ticket: "A reconciliation run again straight after changes nothing." },
          level: "l3",
          detail: unchanged ? "the second reconciliation changed nothing" : `the second reconciliation changed the outputs (${journalOf(recAgain).length - recJournal.length} more journal rows)`,
        });
        boundedReads(c, "reconcile_reads_only_changes", e, vendor, switchEpoch, cp3, first, "by the reconciliation", {
          ticket: "TalentForge's partner terms allow it to read only what changed since the previous poll (the cut-over counts as one); a full read of the book is not allowed after the cut-over.",
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials belong in headers",
    no_secrets_echoed_to_vendor: "Credentials belong in headers",
    webhook_bad_signature_rejected: "Only deliveries that provably come from TalentForge, now, may change anything",
    webhook_stale_timestamp_rejected: "Only deliveries that provably come from TalentForge, now, may change anything",
    token_reused_not_reminted: "tokens are reused for their lifetime",
    retry_after_honored: "when TalentForge says to wait, wait",
    no_full_resync_after_incremental: "a full read of the book is not allowed after the cut-over",
  },
});
