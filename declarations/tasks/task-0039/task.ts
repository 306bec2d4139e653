import { z } from "zod";
import { defineTask } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { jsonLines } from "../../schema/output-contract.ts";
import { byLabel, compareRows, expectedRows, fewIds, liveIds, type MirrorRow, mirrorOutputs, outputProblem, outputRows, plumbing } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";
import { authentic, deliveries, deliveryChecks } from "../shared/deliveries.ts";

const ROLE = "interviewly";
const JOURNAL = "event_journal.jsonl";
const ENTITIES = [
  { entity: "interview", file: "interviews.json" },
  { entity: "scorecard", file: "scorecards.json" },
] as const;
const COPY = ENTITIES.map((x) => x.file);
const FILES = [...COPY, JOURNAL];

/** The morning back-fill: recruiters book interviews while it reads (the interviews list moves under an offset crawl), and one scorecards page is cut off mid-answer. */
export const BACKFILL_FAULTS = ["iv-interviews-drift", "iv-scorecards-reset"];
/** The reorg afternoon: the burst reversed, every third event twice, two forgeries and a stale replay. */
export const REORG_FAULTS = ["iv-reordered-burst", "iv-replay-some", "iv-forged-delivery", "iv-replayed-old-delivery"];
/** The afternoon after the restart: in the order Interviewly sent it, every third event twice. */
export const NEXT_DAY_FAULTS = ["iv-replay-some"];

/** One line of the event journal, as the ticket defines it. */
const JournalLineSchema = z.looseObject({ event_id: z.string(), type: z.string(), source_id: z.string(), updated_at: z.number() });
type JournalLine = z.infer<typeof JournalLineSchema>;

const CANCELLED = { ticket: "Interviewly never reuses an id, and a cancelled interview never comes back." };
const AFTER_LISTENING = { ticket: "After a stretch of listening, the copy matches Interviewly again, cancellations included" };
const ONCE = { ticket: "Each change is journalled once: a redelivery of an event already applied adds nothing." };

const rows = (run: ConnectorRun | undefined, file: string): MirrorRow[] => objects(outputRows<MirrorRow>(run, file));
const journal = (run: ConnectorRun | undefined): JournalLine[] => objects(outputRows<JournalLine>(run, JOURNAL));
const serveRuns = (e: ScenarioEvidence): ConnectorRun[] => e.runs.filter((r) => r.label === "serve");
const deletedIds = (s: Snapshot, entity: string) => new Set((s.entities[entity] ?? []).filter((r) => r.deleted).map((r) => r.id));

/**
 * The copy after a stretch of listening against the truth. `held` are the
 * records the copy held live before it: those cancelled since need a removed
 * row; a record cancelled before the copy held it may have a removed row or
 * none, never a live one.
 */
function compareCopy(actual: MirrorRow[], truth: Snapshot, entity: string, held: Set<string>): { ok: boolean; detail: string; resurrected: string[] } {
  const gone = deletedIds(truth, entity);
  const resurrected = actual.filter((r) => gone.has(String(r.source_id)) && r.is_deleted !== true).map((r) => String(r.source_id));
  const kept = actual.filter((r) => !(r.is_deleted === true && gone.has(String(r.source_id)) && !held.has(String(r.source_id))));
  const cmp = compareRows(kept, expectedRows(truth, entity, { updatedField: "updated_at", seen: held }));
  return { ...cmp, resurrected };
}

/** Mirror checks of one stretch of listening: each entity's copy, and no cancelled interview live. */
function listeningChecks(c: CheckRecorder, stage: string, run: ConnectorRun | undefined, truth: Snapshot, held: (entity: string) => Set<string>): void {
  const resurrected: string[] = [];
  for (const { entity, file } of ENTITIES) {
    const cmp = compareCopy(rows(run, file), truth, entity, held(entity));
    resurrected.push(...cmp.resurrected);
    c.check(`${stage}_${entity}s_match`, cmp.ok, { basis: AFTER_LISTENING, pass: 2, mandatory: true, level: "l3", detail: cmp.detail });
  }
  c.check(`${stage}_cancellations_final`, resurrected.length === 0, {
    basis: CANCELLED,
    pass: 2,
    mandatory: true,
    level: "l3",
    detail: resurrected.length ? `${resurrected.length} records cancelled in Interviewly are live in the copy (${fewIds(resurrected)})` : "no cancelled record is live in the copy",
  });
}

/** Per record, the state it reached at a snapshot: deleted, or its `updated_at`. */
function finalStates(s: Snapshot, entity: string): Map<string, { deleted: boolean; updatedAt: unknown }> {
  return new Map((s.entities[entity] ?? []).map((r) => [r.id, { deleted: r.deleted, updatedAt: r.record.updated_at }]));
}

/**
 * Problems with the final journal: an event journalled twice or never
 * authentically delivered, a record journalled past its cancellation or back
 * to an older version, a change a stretch of listening brought that is not
 * the record's last line, or lines the first listener wrote that the
 * restarted one lost.
 */
function journalProblems(e: ScenarioEvidence, first: JournalLine[], final: JournalLine[], maxSkewS: number, stages: { before: Snapshot; after: Snapshot }[]): string[] {
  const problems: string[] = [];
  const delivered = new Map(
    deliveries(e, ROLE)
      .filter((d) => authentic(d, maxSkewS))
      .map((d) => [d.eventId, d]),
  );
  const seen = new Set<string>();
  const twice: string[] = [];
  const undelivered: string[] = [];
  const backwards: string[] = [];
  const last = new Map<string, JournalLine>();
  for (const line of final) {
    if (seen.has(line.event_id)) twice.push(line.event_id);
    seen.add(line.event_id);
    if (!delivered.has(line.event_id)) undelivered.push(line.event_id);
    const key = `${line.type.split(".")[0]}/${line.source_id}`;
    const prev = last.get(key);
    if (prev && (prev.type.endsWith(".deleted") || (!line.type.endsWith(".deleted") && !(line.updated_at > prev.updated_at))))
      backwards.push(`${line.event_id} after ${prev.event_id} (${line.source_id})`);
    last.set(key, line);
  }
  if (twice.length) problems.push(`${twice.length} events journalled more than once (${fewIds(twice)})`);
  if (undelivered.length) problems.push(`${undelivered.length} lines name no event Interviewly delivered authentically (${fewIds(undelivered)})`);
  if (backwards.length) problems.push(`${backwards.length} lines take a record back (${backwards.slice(0, 2).join("; ")})`);
  const lost = first.filter((l, i) => JSON.stringify(final[i]) !== JSON.stringify(l)).length;
  if (lost) problems.push(`${lost} of the first listener's ${first.length} lines are not at the head of the journal after the restart`);

  // Each record a stretch changed ends on its state at the end of the stretch (a record the copy never held live may have no line).
  const behind: string[] = [];
  const { after: end } = stages.at(-1)!;
  for (const { entity } of ENTITIES) {
    const start = finalStates(stages[0].before, entity);
    for (const [id, now] of finalStates(end, entity)) {
      const was = start.get(id);
      if (was && was.deleted === now.deleted && was.updatedAt === now.updatedAt) continue;
      const line = last.get(`${entity}/${id}`);
      const everLive = stages.some((s) => liveIds(s.after, entity).has(id)) || (was !== undefined && !was.deleted);
      if (!line) {
        if (everLive) behind.push(`${id} (no line)`);
        continue;
      }
      const right = now.deleted ? line.type.endsWith(".deleted") : !line.type.endsWith(".deleted") && line.updated_at === now.updatedAt;
      if (!right) behind.push(`${id} (last line ${line.event_id} ${line.type})`);
    }
  }
  if (behind.length) problems.push(`${behind.length} changed records whose last line is not their latest change (${fewIds(behind)})`);
  return problems;
}

export default defineTask({
  id: "task-0039",
  title: "Interviewly relay repair: a replay dedupe that drops reordered events, cancellations that must stay final, and scorecards back-filled without their feedback",
  kind: "fix",
  roles: { [ROLE]: { vendor: "interviewly", checkpoint: 3 } },
  seed: 39,
  docsProfile: "true",
  surfaces: ["webhooks", "polling"],
  primaryMechanic: "booby_trapped_starter",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "serve"] },
  outputs: { ...mirrorOutputs(COPY), [JOURNAL]: jsonLines(JournalLineSchema) },
  timeLimitS: 30,
  scenarios: [
    {
      // A back-fill while recruiters book interviews (the list drifts under it, a scorecards page is cut off), then the reorg afternoon (reversed, replayed, with forgeries and a stale
      // replay), a restart of the listener, and the next afternoon in Interviewly's own order.
      name: "reorg_afternoon",
      judge: (e, c, ctx) => {
        const vendor = ctx.vendors[ROLE];
        const maxSkewS = vendor.webhooks?.maxSkewS ?? 60;
        const [cp3, cp4, cp5] = ["cp3", "cp4", "cp5"].map((l) => e.snapshots[l]?.[ROLE]);
        const sync = byLabel(e, "sync");
        if (!plumbing(c, "backfill_ran_ok", sync, COPY, { ticket: "Both commands exit 0." })) return;
        for (const { entity, file } of ENTITIES) {
          const cmp = compareRows(rows(sync, file), expectedRows(cp3, entity, { updatedField: "updated_at" }));
          c.check(`backfill_${entity}s_match`, cmp.ok, {
            basis: { ticket: "After a back-fill, the copy matches Interviewly." },
            pass: 2,
            mandatory: true,
            detail: cmp.detail,
          });
        }

        deliveryChecks(c, deliveries(e, ROLE), maxSkewS, {
          acknowledged: { ticket: "acknowledge what you have taken in the way Interviewly counts an acknowledgement" },
          refused: { ticket: "Refuse anything else with a 4xx" },
        });
        const genuine = deliveries(e, ROLE).filter((d) => authentic(d, maxSkewS));
        if (genuine.length) {
          const events = new Set(genuine.map((d) => d.eventId));
          const unacked = [...events].filter((id) => !genuine.some((d) => d.eventId === id && d.acked === true));
          c.check("every_event_acknowledged", unacked.length === 0, {
            basis: { ticket: "acknowledge what you have taken in the way Interviewly counts an acknowledgement, so it does not resend it" },
            level: "l2",
            detail: unacked.length ? `${unacked.length} of ${events.size} events never acknowledged the way Interviewly counts it (${fewIds(unacked)})` : `${events.size} events, each acknowledged`,
          });
        }

        const [first, second] = serveRuns(e);
        const ran = [first, second].filter(Boolean) as ConnectorRun[];
        const broken = ran.length < 2 ? ["the listener did not run twice"] : ran.flatMap((r, i) => (r.exitCode !== 0 ? [`listener ${i + 1} exited ${r.exitCode}`] : []));
        for (const [i, r] of ran.entries())
          for (const f of FILES) {
            const problem = outputProblem(r, f);
            if (problem) broken.push(`listener ${i + 1}: ${problem}`);
          }
        c.check("listeners_ran_ok", broken.length === 0, {
          basis: { ticket: "Both commands exit 0." },
          pass: 0,
          fail: -1,
          detail: broken.length ? broken.join("; ") : "both listener runs exited 0 with readable files",
        });
        if (broken.length || !cp4 || !cp5) return;

        const held4 = (entity: string) => liveIds(cp3, entity);
        listeningChecks(c, "reorg", first, cp4, held4);
        listeningChecks(c, "restart", second, cp5, (entity) => new Set([...liveIds(cp3, entity), ...liveIds(cp4, entity)]));

        const problems = journalProblems(e, journal(first), journal(second), maxSkewS, [
          { before: cp3, after: cp4 },
          { before: cp4, after: cp5 },
        ]);
        c.check("journal_each_change_once", problems.length === 0, {
          basis: ONCE,
          pass: 2,
          mandatory: true,
          level: "l3",
          detail: problems.length ? problems.join("; ") : `${journal(second).length} lines, each change once and in order, across the restart`,
        });
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials belong in headers",
    no_secrets_echoed_to_vendor: "credentials belong in headers",
    webhook_bad_signature_rejected: "Nothing reaches the copy unless it provably comes from Interviewly, now.",
    webhook_stale_timestamp_rejected: "Nothing reaches the copy unless it provably comes from Interviewly, now.",
    token_reused_not_reminted: "access tokens are reused",
  },
});
