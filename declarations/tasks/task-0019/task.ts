import { defineTask, type JudgeContext } from "../../schema/task.ts";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { CheckBasis, ConnectorRun, ScenarioEvidence, Snapshot, SnapshotRecord } from "../../../evidence/verdict.ts";
import { compareRows, expectedRows, fewIds, outputRows, plumbing, type MirrorRow, MirrorRowSchema } from "../shared/judging.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { z } from "zod";
import { answered2xx } from "../../../evidence/conduct.ts";
import { authentic, deliveries } from "../shared/deliveries.ts";

const FILES = ["records.json", "freshness.json"];
const ENTITIES = ["application", "candidate", "job", "note"] as const;
type Entity = (typeof ENTITIES)[number];
const PUSHED: Entity[] = ["application", "candidate"];
const POLLED: Entity[] = ["job", "note"];
/** The field that dates a record's last change (notes never change once written). */
const STAMP: Record<Entity, string> = { application: "updated_at", candidate: "updated_at", job: "updated_at", note: "created_at" };

/** The declared fault that keeps one `candidate.deleted` event from ever being delivered. */
const DROP_FAULT = "tl-drop-first-candidate-delete";
// The drop goes without the duplicate storm: a storm-shaped event would keep its delivery.
export const DAY1_FAULTS = ["tl-reversed-burst", DROP_FAULT];
export const DAY2_FAULTS = ["tl-duplicate-storm", "tl-reversed-burst", "tl-jobs-503-first-page"];
/** How far a connector's `synced_at` may sit before the vendor logged the traffic it came from (clock skew). */
const SYNCED_AT_SLACK_MS = 3000;

/** One row of `records.json`. */
interface ViewRow extends MirrorRow {
  entity: string;
  source?: unknown;
  synced_at?: unknown;
}

/** One row of `freshness.json`. */
interface FreshnessRow {
  entity?: unknown;
  source?: unknown;
  live_records?: unknown;
  watermark?: unknown;
  changed_last_poll?: unknown;
}

const instant = (v: unknown) => (typeof v === "string" ? Date.parse(v) : Number.NaN);

function viewRows(run: ConnectorRun | undefined): ViewRow[] {
  return (outputRows<ViewRow>(run, "records.json") ?? []).filter((r) => r !== null && typeof r === "object");
}

function entityRows(run: ConnectorRun | undefined, entity: Entity): ViewRow[] {
  return viewRows(run).filter((r) => r.entity === entity);
}

/**
 * The truth for one entity as the view should see it: a note whose candidate
 * TalentLoop removed is removed too (its notes list no longer answers).
 */
function truthOf(s: Snapshot, entity: Entity): SnapshotRecord[] {
  const rows = s.entities[entity] ?? [];
  if (entity !== "note") return rows;
  const goneCands = new Set((s.entities.candidate ?? []).filter((r) => r.deleted).map((r) => r.id));
  return rows.map((r) => (goneCands.has(String(r.record.candidate_id)) ? { ...r, deleted: true } : r));
}

function liveOf(s: Snapshot, entity: Entity): Set<string> {
  return new Set(
    truthOf(s, entity)
      .filter((r) => !r.deleted)
      .map((r) => r.id),
  );
}

function goneOf(s: Snapshot, entity: Entity): Set<string> {
  return new Set(
    truthOf(s, entity)
      .filter((r) => r.deleted)
      .map((r) => r.id),
  );
}

/**
 * One entity of the view against the truth. `held` are the records the view
 * had live copies of before: those TalentLoop removed since need a removed
 * row; for one removed before the view ever held it a removed row and no row
 * are both right. `skip` are ids left out of the comparison.
 */
function compareEntity(run: ConnectorRun | undefined, truth: Snapshot, entity: Entity, held: Set<string>, skip: Set<string> = new Set()): { ok: boolean; detail: string } {
  const gone = goneOf(truth, entity);
  const actual = entityRows(run, entity).filter((r) => !skip.has(String(r.source_id)) && !(r.is_deleted === true && gone.has(String(r.source_id)) && !held.has(String(r.source_id))));
  const want = expectedRows({ ...truth, entities: { [entity]: truthOf(truth, entity) } }, entity, { updatedField: STAMP[entity], seen: held });
  for (const id of skip) want.delete(id);
  return compareRows(actual, want);
}

function viewCheck(
  c: CheckRecorder,
  name: string,
  run: ConnectorRun | undefined,
  truth: Snapshot,
  before: Snapshot,
  entities: Entity[],
  opts: { level: "l1" | "l3"; skip?: Set<string>; basis: CheckBasis },
): void {
  const problems: string[] = [];
  for (const entity of entities) {
    const cmp = compareEntity(run, truth, entity, liveOf(before, entity), entity === "candidate" ? opts.skip : undefined);
    if (!cmp.ok) problems.push(`${entity}: ${cmp.detail}`);
  }
  c.check(name, problems.length === 0, {
    basis: opts.basis,
    pass: 2,
    fail: 0,
    mandatory: true,
    level: opts.level,
    detail: problems.length ? problems.join("; ") : `${entities.join(", ")} match TalentLoop${opts.skip?.size ? ` (${[...opts.skip].join(", ")}: its delete event never came)` : ""}`,
  });
}

/** Candidates TalentLoop removed between two snapshots that a run's view still shows live. */
function missedRemovals(run: ConnectorRun | undefined, before: Snapshot, after: Snapshot): string[] {
  const wasGone = goneOf(before, "candidate");
  const rows = new Map(entityRows(run, "candidate").map((r) => [String(r.source_id), r]));
  return [...goneOf(after, "candidate")].filter((id) => !wasGone.has(id) && rows.has(id) && rows.get(id)!.is_deleted !== true);
}

/** Deletes the drop fault keeps back, per the declaration (the listener cannot know them). */
function droppedCount(ctx: JudgeContext): number {
  return (ctx.vendors.ats?.faults ?? []).filter((f) => f.id === DROP_FAULT).length;
}

/** The per-entity report TalentLoop's state implies after a poll that followed `before`. */
function expectedReport(truth: Snapshot, before: Snapshot): Map<Entity, { source: string; live_records: number; watermark: number; changed_last_poll: number | null }> {
  const out = new Map<Entity, { source: string; live_records: number; watermark: number; changed_last_poll: number | null }>();
  for (const entity of ENTITIES) {
    const live = truthOf(truth, entity).filter((r) => !r.deleted);
    const prior = new Map(truthOf(before, entity).map((r) => [r.id, r]));
    const changed = live.filter((r) => {
      const p = prior.get(r.id);
      return !p || p.deleted || JSON.stringify(p.record) !== JSON.stringify(r.record);
    }).length;
    out.set(entity, {
      source: PUSHED.includes(entity) ? "webhook" : "poll",
      live_records: live.length,
      watermark: Math.max(...live.map((r) => instant(r.record[STAMP[entity]])).filter((n) => !Number.isNaN(n))),
      changed_last_poll: POLLED.includes(entity) ? changed : null,
    });
  }
  return out;
}

function freshnessCheck(c: CheckRecorder, name: string, run: ConnectorRun | undefined, truth: Snapshot, before: Snapshot): void {
  const got = outputRows<FreshnessRow>(run, "freshness.json") ?? [];
  const want = expectedReport(truth, before);
  const problems: string[] = [];
  const order = got.map((r) => (r && typeof r === "object" ? String(r.entity) : "?"));
  if (JSON.stringify(order) !== JSON.stringify(ENTITIES)) problems.push(`entities ${JSON.stringify(order)}, want ${JSON.stringify(ENTITIES)}`);
  for (const [entity, w] of want) {
    const g = got.find((r) => r && typeof r === "object" && r.entity === entity);
    if (!g) continue;
    const bad: string[] = [];
    if (g.source !== w.source) bad.push(`source ${JSON.stringify(g.source)}`);
    if (g.live_records !== w.live_records) bad.push(`live_records ${JSON.stringify(g.live_records)} (TalentLoop: ${w.live_records})`);
    if (instant(g.watermark) !== w.watermark) bad.push(`watermark ${JSON.stringify(g.watermark)} (TalentLoop: ${new Date(w.watermark).toISOString()})`);
    if (g.changed_last_poll !== w.changed_last_poll) bad.push(`changed_last_poll ${JSON.stringify(g.changed_last_poll)} (want ${JSON.stringify(w.changed_last_poll)})`);
    if (bad.length) problems.push(`${entity}: ${bad.join(", ")}`);
  }
  c.check(name, problems.length === 0, {
    basis: { ticket: "`freshness.json` tells the dashboard the truth about every entity" },
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: problems.length ? problems.slice(0, 3).join("; ") : `report matches (jobs changed ${want.get("job")?.changed_last_poll}, notes changed ${want.get("note")?.changed_last_poll})`,
  });
}

/**
 * Every poll reads jobs with the incremental filter the API honours, starting
 * from the newest job change the view held ("read what changed"). Besides it,
 * a poll may sweep the jobs list once, one pass with no page read twice: a
 * removed job drops out of lists and `modified_since` reads with no flag and
 * no feed, so that pass is how "removals included" is honoured. Reading jobs
 * without the filter only (the docs' `updated_after` is ignored, so it is one
 * of those), or more than one pass, is reading the tenant again.
 */
function incrementalCheck(c: CheckRecorder, e: ScenarioEvidence, ctx: JudgeContext, polls: [Snapshot, Snapshot][]): void {
  const vendor = ctx.vendors.ats;
  const param = vendor?.incremental?.param ?? "modified_since";
  const path = vendor?.resources.find((r) => r.name === "job")?.list ?? "/v1/jobs";
  const problems: string[] = [];
  let swept = 0;
  for (const [truth, before] of polls) {
    const reads = (e.requests.ats ?? []).filter((r) => r.epoch === truth.epoch && r.method === "GET" && r.path === path && r.status < 400);
    if (!reads.length) {
      problems.push(`no jobs read in the poll of checkpoint ${truth.checkpoint}`);
      continue;
    }
    const filtered = reads.filter((r) => r.query[param] !== undefined);
    const unfiltered = reads.filter((r) => r.query[param] === undefined);
    if (!filtered.length) {
      problems.push(
        `checkpoint ${truth.checkpoint}: ${unfiltered.length} of ${reads.length} jobs reads without ${param} and none with it (first #${unfiltered[0].seq}: ${Object.keys(unfiltered[0].query).join(", ") || "no parameters"})`,
      );
      continue;
    }
    const pages = new Set(unfiltered.map((r) => JSON.stringify(Object.entries(r.query).sort())));
    if (pages.size < unfiltered.length) {
      problems.push(`checkpoint ${truth.checkpoint}: ${unfiltered.length} jobs reads without ${param}, more than one sweep (a page read ${unfiltered.length - pages.size + 1} times)`);
      continue;
    }
    if (unfiltered.length) swept += 1;
    const mark = Math.max(
      ...truthOf(before, "job")
        .filter((r) => !r.deleted)
        .map((r) => instant(r.record.updated_at)),
    );
    const from = instant(filtered[0].query[param]);
    if (from !== mark) problems.push(`checkpoint ${truth.checkpoint}: read from ${filtered[0].query[param]}, newest job change held was ${new Date(mark).toISOString()}`);
  }
  c.check("jobs_polled_incrementally", problems.length === 0, {
    basis: { ticket: "an hourly poll must read what changed, not the whole tenant again" },
    pass: 2,
    fail: 0,
    mandatory: true,
    level: "l2",
    detail: problems.length ? problems.join("; ") : `every poll read jobs with ${param} from the last watermark${swept ? ` (${swept} with one id sweep beside it)` : ""}`,
  });
}

/** Polls leave what TalentLoop pushes to the webhooks: no crawl of the candidate or application lists. */
function pushedLeftAlone(c: CheckRecorder, e: ScenarioEvidence, ctx: JudgeContext, epochs: number[]): void {
  const lists = new Set(PUSHED.map((entity) => ctx.vendors.ats?.resources.find((r) => r.name === entity)?.list).filter((p): p is string => !!p));
  const traffic = (e.requests.ats ?? []).filter((r) => epochs.includes(r.epoch) && r.status < 400 && r.path !== "/token");
  if (!traffic.length) return;
  const crawls = traffic.filter((r) => r.method === "GET" && lists.has(r.path));
  c.check("polls_leave_pushed_lists_alone", crawls.length === 0, {
    basis: { ticket: "TalentLoop's partner quota is shared with two other integrations on this tenant" },
    level: "l2",
    detail: crawls.length ? `${crawls.length} list reads of pushed entities during polls (first ${crawls[0].path})` : "polls read only what TalentLoop does not push",
  });
}

/**
 * `source` tells how the view learned each record's current state: the sync
 * for what has not changed since, the webhooks for pushed changes, the polls
 * for jobs, notes and the removal no event carried.
 */
function sourcesCheck(c: CheckRecorder, run: ConnectorRun | undefined, truth: Snapshot, synced: Snapshot, viaPoll: Set<string>): void {
  const wrong: string[] = [];
  let judged = 0;
  for (const entity of ENTITIES) {
    const at0 = new Map((synced.entities[entity] ?? []).map((r) => [r.id, r]));
    const now = new Map(truthOf(truth, entity).map((r) => [r.id, r]));
    for (const row of entityRows(run, entity)) {
      const id = String(row.source_id);
      const t = now.get(id);
      if (!t) continue;
      if (entity === "note" && t.deleted) continue;
      const before = at0.get(id);
      const changed = !before || before.deleted !== t.deleted || JSON.stringify(before.record) !== JSON.stringify(t.record);
      const want = POLLED.includes(entity) || !changed || viaPoll.has(id) ? "poll" : "webhook";
      judged += 1;
      if (row.source !== want) wrong.push(`${id} ${JSON.stringify(row.source)} (want ${want})`);
    }
  }
  c.check("sources_attributed", judged > 0 && wrong.length === 0, {
    basis: {
      ticket:
        '`source`: how the view learned the record\'s current state (or its removal): `"webhook"` if a TalentLoop delivery told us, `"poll"` if we read it from the API (`sync` counts as a poll).',
    },
    pass: 2,
    fail: 0,
    mandatory: true,
    detail: wrong.length ? `${wrong.length} of ${judged} rows name the wrong source (${fewIds(wrong)})` : `${judged} rows name how they were learned`,
  });
}

/** `synced_at` is our clock at the time the row was taken in: rows changed on day two were stamped on day two. */
function syncedAtCheck(c: CheckRecorder, e: ScenarioEvidence, run: ConnectorRun | undefined, day2: Snapshot, day1: Snapshot): void {
  const rows = viewRows(run);
  const unparsed = rows.filter((r) => Number.isNaN(instant(r.synced_at))).map((r) => String(r.source_id));
  const reqTs = (e.requests.ats ?? []).filter((r) => r.epoch === day2.epoch).map((r) => r.ts);
  const hookTs = deliveries(e, "ats")
    .filter((d) => d.epoch === day2.epoch)
    .map((d) => d.ts);
  const early: string[] = [];
  const starts: Record<string, number> = { poll: Math.min(...reqTs) * 1000, webhook: Math.min(...hookTs) * 1000 };
  for (const entity of ENTITIES) {
    const prior = new Map(truthOf(day1, entity).map((r) => [r.id, r]));
    for (const t of truthOf(day2, entity)) {
      if (t.deleted) continue;
      const p = prior.get(t.id);
      if (p && !p.deleted && JSON.stringify(p.record) === JSON.stringify(t.record)) continue;
      const start = starts[PUSHED.includes(entity) ? "webhook" : "poll"];
      const row = rows.find((r) => r.entity === entity && String(r.source_id) === t.id);
      if (row && Number.isFinite(start) && instant(row.synced_at) < start - SYNCED_AT_SLACK_MS) early.push(t.id);
    }
  }
  c.check("synced_at_is_when_taken_in", rows.length > 0 && unparsed.length === 0 && early.length === 0, {
    basis: { ticket: "`synced_at`: our own clock (ISO 8601, UTC) when the view took in that state." },
    detail: unparsed.length
      ? `${unparsed.length} rows without a readable synced_at (${fewIds(unparsed)})`
      : early.length
        ? `${early.length} rows changed on day two carry a synced_at from before day two (${fewIds(early)})`
        : "every row stamped when it was taken in",
  });
}

function deliveryCheck(c: CheckRecorder, e: ScenarioEvidence, maxSkewS: number): void {
  const genuine = deliveries(e, "ats").filter((d) => authentic(d, maxSkewS));
  if (!genuine.length) return;
  const refused = genuine.filter((d) => !answered2xx(d.responseCode));
  c.check("authentic_deliveries_acknowledged", refused.length === 0, {
    basis: { ticket: "Acknowledge what you have taken in with a 2xx so TalentLoop does not keep resending it." },
    level: "l2",
    detail: refused.length
      ? `${refused.length} of ${genuine.length} authentic deliveries answered ${[...new Set(refused.map((d) => d.responseCode))].join("/")} (first ${refused[0].eventId})`
      : `${genuine.length} authentic deliveries answered 2xx`,
  });
}

export default defineTask({
  id: "task-0019",
  title: "TalentLoop freshness view: pushed candidates and applications, polled jobs and notes, one report of how fresh each is",
  kind: "build",
  roles: { ats: { vendor: "talentloop", checkpoint: 0 } },
  seed: 19,
  docsProfile: "stale",
  surfaces: ["webhooks", "polling"],
  primaryMechanic: "poll_only_entities_unified_freshness",
  entry: { command: ["node", "src/main.ts"], subcommands: ["sync", "serve", "poll"] },
  outputs: {
    "records.json": jsonRows(MirrorRowSchema.extend({ entity: z.enum(["application", "candidate", "job", "note"]), source: z.enum(["webhook", "poll"]), synced_at: z.string() })),
    "freshness.json": jsonRows(
      z.looseObject({
        entity: z.enum(["application", "candidate", "job", "note"]),
        source: z.enum(["webhook", "poll"]),
        live_records: z.number().int(),
        watermark: z.string().nullable(),
        changed_last_poll: z.number().int().nullable(),
      }),
    ),
  },
  timeLimitS: 30,
  scenarios: [
    {
      // Two working days, each pushed live and followed by the scheduled poll. Day one: a
      // reversed burst and a candidate delete that is never delivered. Day two: a storm of
      // redeliveries, a reversed burst, and a jobs list that fails twice before it answers.
      name: "two_days_pushed_and_polled",
      judge: (e, c, ctx) => {
        const cp0 = e.snapshots.cp0.ats;
        const cp1 = e.snapshots.cp1.ats;
        const cp2 = e.snapshots.cp2.ats;
        const none: Snapshot = { checkpoint: -1, epoch: -1, entities: {} };
        const run = (label: string) => e.runs.find((r) => r.label === label);
        const [serve1, serve2] = e.runs.filter((r) => r.label === "serve");
        deliveryCheck(c, e, ctx.vendors.ats?.webhooks?.maxSkewS ?? 300);

        const sync = run("sync");
        if (plumbing(c, "sync_exit_ok", sync, FILES, { ticket: "Every command exits 0" }))
          viewCheck(c, "sync_view_matches", sync, cp0, none, [...ENTITIES], { level: "l1", basis: { ticket: "Read every candidate, application, job and note, and start the view over." } });

        // Day one, from the webhooks alone: at most the undelivered delete is still to come.
        const missed = missedRemovals(serve1, cp0, cp1);
        const tolerated = missed.length <= droppedCount(ctx) ? new Set(missed) : new Set<string>();
        if (plumbing(c, "listener_day1_exit_ok", serve1, FILES, { ticket: "Every command exits 0" }))
          viewCheck(c, "day1_pushed_records_match", serve1, cp1, cp0, PUSHED, {
            level: "l3",
            skip: tolerated,
            basis: { ticket: "after the listener, the pushed entities reflect what TalentLoop delivered" },
          });

        const poll1 = run("poll_day1");
        if (plumbing(c, "poll_day1_exit_ok", poll1, FILES, { ticket: "Every command exits 0" })) {
          viewCheck(c, "day1_view_matches", poll1, cp1, cp0, [...ENTITIES], { level: "l3", basis: { ticket: "After a `poll` the whole view must match TalentLoop, removals included." } });
          freshnessCheck(c, "day1_freshness_report", poll1, cp1, cp0);
          const goneDay1 = [...goneOf(cp1, "candidate")].filter((id) => !goneOf(cp0, "candidate").has(id));
          const stillLive = missedRemovals(poll1, cp0, cp1);
          c.check("undelivered_delete_found_by_poll", goneDay1.length > 0 && stillLive.length === 0, {
            basis: { ticket: "After a `poll` the whole view must match TalentLoop, removals included." },
            pass: 2,
            fail: 0,
            mandatory: true,
            level: "l3",
            detail: stillLive.length
              ? `${stillLive.length} of ${goneDay1.length} candidates removed on day one still live after the poll (${fewIds(stillLive)})`
              : `${goneDay1.length} candidates removed on day one gone after the poll${missed.length ? `, ${missed.join(", ")} found by the poll` : ""}`,
          });
          // A removal the poll made must be TalentLoop's word: a read of the candidate answering 410.
          const template = ctx.vendors.ats?.resources.find((r) => r.name === "candidate")?.get ?? "/v1/candidates/:id";
          const answered = new Set((e.requests.ats ?? []).filter((r) => r.epoch === cp1.epoch && r.method === "GET" && (r.status === 410 || r.status === 404)).map((r) => r.path));
          const byPoll = missed.filter((id) => entityRows(poll1, "candidate").some((r) => String(r.source_id) === id && r.is_deleted === true));
          if (byPoll.length) {
            const unconfirmed = byPoll.filter((id) => !answered.has(template.replace(":id", encodeURIComponent(id))));
            c.check("poll_removal_confirmed_gone", unconfirmed.length === 0, {
              basis: { ticket: "Before the view drops a record no webhook told us about, get TalentLoop's own word for that record." },
              level: "l2",
              detail: unconfirmed.length ? `${fewIds(unconfirmed)} removed without a read of the candidate answering 410` : `${byPoll.length} removal(s) confirmed by a read of the candidate`,
            });
          }
        }

        if (plumbing(c, "listener_day2_exit_ok", serve2, FILES, { ticket: "Every command exits 0" }))
          viewCheck(c, "day2_pushed_records_match", serve2, cp2, cp1, PUSHED, { level: "l3", basis: { ticket: "after the listener, the pushed entities reflect what TalentLoop delivered" } });
        const poll2 = run("poll_day2");
        if (plumbing(c, "poll_day2_exit_ok", poll2, FILES, { ticket: "Every command exits 0" })) {
          viewCheck(c, "day2_view_matches", poll2, cp2, cp1, [...ENTITIES], { level: "l3", basis: { ticket: "After a `poll` the whole view must match TalentLoop, removals included." } });
          freshnessCheck(c, "day2_freshness_report", poll2, cp2, cp1);
          sourcesCheck(c, poll2, cp2, cp0, new Set(missed));
          syncedAtCheck(c, e, poll2, cp2, cp1);
        }
        if (poll1 || poll2) {
          incrementalCheck(c, e, ctx, [
            [cp1, cp0],
            [cp2, cp1],
          ]);
          pushedLeftAlone(c, e, ctx, [cp1.epoch, cp2.epoch]);
        }
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "credentials in headers",
    no_secrets_echoed_to_vendor: "credentials in headers",
    webhook_bad_signature_rejected: "nothing reaches the view unless it provably comes from TalentLoop, now",
    webhook_stale_timestamp_rejected: "nothing reaches the view unless it provably comes from TalentLoop, now",
    token_reused_not_reminted: "access tokens reused",
    retry_after_honored: "the documented rate limits followed",
    no_full_resync_after_incremental: "an hourly poll must read what changed, not the whole tenant again",
  },
});
