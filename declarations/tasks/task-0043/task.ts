import { z } from "zod";
import type { CheckRecorder } from "../../../evidence/recorder.ts";
import type { ConnectorRun, ScenarioEvidence, Snapshot } from "../../../evidence/verdict.ts";
import { jsonRows } from "../../schema/output-contract.ts";
import { defineTask, type JudgeContext } from "../../schema/task.ts";
import { commandsRanOk } from "../shared/command-runs.ts";
import { byLabel, fewIds, outputRows } from "../shared/judging.ts";
import { objects } from "../shared/rows.ts";

export const ROLE = "skills";
const FILE = "capability_index.json";
/**
 * Three mornings after a clean-up: profiles, memberships and a pool deleted, new pools and people, then a
 * batch of erased profiles, among them the most recently added person of some pools, whose
 * `last_added_at` falls back to an earlier person; then a pool review: memberships ended (kept in
 * the lists with `ra` set, the latest addition of some pools among them) and some people added
 * again (declarations/vendors/sourcewell.ts timeline; test/node/task-0043-latest-member.test.ts
 * holds both for every grading seed); then removals booked ahead (`ra` set to a date years away, the
 * latest addition of some pools among them): those people are still in their pools this morning.
 * The development world is the morning before (DEV), which has no removal booked ahead yet.
 */
export const MORNING = 6;
/** The checkpoint the workspace's development world shows. */
export const DEV = 5;
/** The morning's hiccups: an answer cut off mid-body during the pools' fan-out and a failing page of the endorsements list. */
export const FANOUT_RESET = "sw-fanout-reset";
export const ENDORSEMENTS_502 = "sw-endorsements-502-page-2";
/**
 * The graph is live that morning: the endorsements list moves under the crawl, on the third page of the first read (its
 * twenty newest endorsements move to the head, so a single pass by offset repeats twenty and misses those twenty while its
 * length still equals `cnt`), and again on the third page of a read that starts over. A crawl that counts distinct ids
 * against `cnt` and reads again until one read holds them all (or unions its reads) gets every endorsement.
 */
export const ENDORSEMENTS_DRIFT = "sw-morning-endorsements-drift";
export const ENDORSEMENTS_DRIFT_AGAIN = "sw-morning-endorsements-drift-again";
/** How many memberships a pool embeds in `mb` (declarations/vendors/sourcewell.ts). */
const EMBEDDED = 5;
const MIN_LEVEL = 3;

const IndexRow = z.object({
  pool_id: z.string(),
  name: z.string(),
  people: z.number().int().min(0),
  talent_ids: z.array(z.string()),
  skills: z.array(z.string()),
  last_added_at: z.string().nullable(),
});
type IndexRow = z.infer<typeof IndexRow>;

const BASES = {
  people: { ticket: "`talent_ids` lists everyone who is in the pool now, sorted, each person once however many times they were added; `people` is how many that is." },
  skills: { ticket: "`skills` names the skills at least one of those people holds at level 3 or above, sorted, each name once." },
  lastAdded: { ticket: "`last_added_at` is when the most recent of those people was added to the pool" },
  rows: { ticket: "`capability_index.json` is an array with one row per pool Sourcewell has, sorted by `pool_id`" },
  metered: { ticket: "Sourcewell bills us for every API call, so please don't read more than the index needs." },
};

/** What a pool's row must hold, by pool id. */
interface Expected {
  name: string;
  talentIds: string[];
  skills: string[];
  lastAddedMs: number | null;
  /** Listed memberships, ended ones included: more than the pool embeds means its `mb` is cut short. */
  memberships: number;
}

const live = (s: Snapshot, entity: string) => (s.entities[entity] ?? []).filter((r) => !r.deleted);

/** Sourcewell's clock at a snapshot's checkpoint (ms): a removal stamped later is booked ahead, not done. */
function worldNowMs(s: Snapshot, clock: { epoch: string; checkpointSpacingS: number }): number {
  return Date.parse(clock.epoch) + s.checkpoint * clock.checkpointSpacingS * 1000;
}

/** A Sourcewell timestamp (whole seconds since the epoch on the wire) as ms. */
function stampMs(v: unknown): number | null {
  if (typeof v === "number") return v < 1e11 ? v * 1000 : v;
  if (typeof v === "string") {
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** The index the world at `s` calls for. */
function expectedIndex(s: Snapshot, nowMs: number): Map<string, Expected> {
  const people = new Set(live(s, "talent").map((r) => r.id));
  const skillName = new Map(live(s, "skill").map((r) => [r.id, r.record]));
  const heldBy = new Map<string, Set<string>>();
  for (const e of live(s, "endorsement")) {
    const skill = skillName.get(String(e.record.sid));
    if (!skill || skill.ret === true || Number(e.record.lvl) < MIN_LEVEL) continue;
    const tid = String(e.record.tid);
    if (!heldBy.has(tid)) heldBy.set(tid, new Set());
    heldBy.get(tid)!.add(String(skill.nm));
  }
  const out = new Map<string, Expected>();
  for (const p of live(s, "pool")) out.set(p.id, { name: String(p.record.nm), talentIds: [], skills: [], lastAddedMs: null, memberships: 0 });
  for (const m of live(s, "member")) {
    const row = out.get(String(m.record.pid));
    if (!row) continue;
    row.memberships += 1;
    // A membership with a removal stamp is history: that person was taken out of the pool. A removal
    // booked for a date still to come leaves them in it until then.
    const removedAt = m.record.ra === null || m.record.ra === undefined ? null : stampMs(m.record.ra);
    if (removedAt !== null && removedAt <= nowMs) continue;
    const tid = String(m.record.tid);
    if (!people.has(tid)) continue;
    if (!row.talentIds.includes(tid)) row.talentIds.push(tid);
    const at = stampMs(m.record.ca);
    if (at !== null && (row.lastAddedMs === null || at > row.lastAddedMs)) row.lastAddedMs = at;
  }
  for (const row of out.values()) {
    row.talentIds.sort();
    row.skills = [...new Set(row.talentIds.flatMap((t) => [...(heldBy.get(t) ?? [])]))].sort();
  }
  return out;
}

const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The row checks of one run's index against the world it read. */
function judgeIndex(c: CheckRecorder, prefix: string, run: ConnectorRun | undefined, truth: Snapshot, nowMs: number): void {
  const want = expectedIndex(truth, nowMs);
  const rows = objects(outputRows<IndexRow>(run, FILE));
  const got = new Map(rows.map((r) => [String(r.pool_id), r]));
  const ids = rows.map((r) => String(r.pool_id));
  const missing = [...want.keys()].filter((id) => !got.has(id));
  const extra = ids.filter((id) => !want.has(id));
  const sorted = ids.every((id, i) => i === 0 || ids[i - 1] < id);
  const repeated = ids.length - new Set(ids).size;
  c.check(`${prefix}_one_row_per_pool`, !missing.length && !extra.length && sorted && !repeated, {
    basis: BASES.rows,
    mandatory: true,
    detail:
      [
        missing.length && `${missing.length} pools missing (${fewIds(missing)})`,
        extra.length && `${extra.length} rows of no pool Sourcewell has (${fewIds(extra)})`,
        repeated && `${repeated} repeated`,
        !sorted && "not sorted by pool_id",
      ]
        .filter(Boolean)
        .join("; ") || `${want.size} pools`,
  });
  const wrong = (pred: (w: Expected, r: IndexRow) => boolean) => [...want].filter(([id, w]) => got.has(id) && !pred(w, got.get(id)!)).map(([id]) => id);
  const badPeople = wrong((w, r) => Array.isArray(r.talent_ids) && same(r.talent_ids, w.talentIds) && r.people === w.talentIds.length && r.name === w.name);
  const cut = [...want.values()].filter((w) => w.memberships > EMBEDDED).length;
  c.check(`${prefix}_people_match`, !missing.length && !badPeople.length, {
    basis: BASES.people,
    pass: 2,
    mandatory: true,
    detail: badPeople.length
      ? `${badPeople.length} of ${want.size} pools with the wrong people, count or name (${fewIds(badPeople)})`
      : missing.length
        ? `${missing.length} pools missing`
        : `${want.size} pools, ${cut} of them larger than their embedded list`,
  });
  const badSkills = wrong((w, r) => Array.isArray(r.skills) && same(r.skills, w.skills));
  c.check(`${prefix}_skills_match`, !missing.length && !badSkills.length, {
    basis: BASES.skills,
    mandatory: true,
    detail: badSkills.length ? `${badSkills.length} pools with the wrong skills (${fewIds(badSkills)})` : missing.length ? `${missing.length} pools missing` : "every pool's skills",
  });
  const badLast = wrong((w, r) => (w.lastAddedMs === null ? r.last_added_at === null : stampMs(r.last_added_at) === w.lastAddedMs));
  const sample = badLast.length ? got.get(badLast[0])?.last_added_at : null;
  c.check(`${prefix}_last_added_match`, !missing.length && !badLast.length, {
    basis: BASES.lastAdded,
    mandatory: true,
    detail: badLast.length
      ? `${badLast.length} pools with the wrong last_added_at (${fewIds(badLast)}; ${badLast[0]} says ${JSON.stringify(sample)}, Sourcewell ${want.get(badLast[0])!.lastAddedMs === null ? "null" : new Date(want.get(badLast[0])!.lastAddedMs!).toISOString()})`
      : missing.length
        ? `${missing.length} pools missing`
        : "every pool's last_added_at",
  });
}

/** Whether the run read a pool's member list only for pools whose embedded list was cut short. */
function readsMembersOnlyWhenCut(c: CheckRecorder, name: string, e: ScenarioEvidence, ctx: JudgeContext, epoch: number | undefined, truth: Snapshot): void {
  const list = ctx.vendors[ROLE].resources.find((r) => r.name === "member")!.list!;
  const pattern = new RegExp(`^${list.replace(":parentId", "([^/]+)")}/?$`);
  const want = expectedIndex(truth, worldNowMs(truth, ctx.vendors[ROLE].clock));
  const needless = new Set<string>();
  let calls = 0;
  for (const r of e.requests[ROLE] ?? []) {
    if (r.epoch !== epoch || r.method !== "GET") continue;
    const m = pattern.exec(r.path);
    if (!m) continue;
    calls += 1;
    const pool = want.get(decodeURIComponent(m[1]));
    if (pool && pool.memberships <= EMBEDDED) needless.add(m[1]);
  }
  const cut = [...want.values()].filter((w) => w.memberships > EMBEDDED).length;
  c.check(name, needless.size === 0, {
    basis: BASES.metered,
    level: "l2",
    detail: needless.size
      ? `member lists read for ${needless.size} pools whose embedded list was complete (${fewIds([...needless])})`
      : `${calls} member-list calls, for ${cut} pools larger than their embedded list`,
  });
}

export default defineTask({
  id: "task-0043",
  title: "Sourcewell capability index of talent pools: embedded member lists are cut short and flagged",
  kind: "build",
  roles: { [ROLE]: { vendor: "sourcewell", checkpoint: DEV } },
  seed: 7,
  docsProfile: "sparse",
  surfaces: ["polling"],
  primaryMechanic: "truncated_array_flag_handling",
  entry: { command: ["node", "src/main.ts"], subcommands: ["index"] },
  outputs: { [FILE]: jsonRows(IndexRow) },
  timeLimitS: 40,
  scenarios: [
    {
      // A morning after a clean-up and a pool review: pools larger than their embedded list, people listed twice in a pool,
      // deleted profiles still listed as members (a pool's latest among them), memberships ended but still listed
      // (a pool's latest among them) and people added again, removals booked for years ahead (a pool's latest among
      // them: still in the pool), new empty pools, a deleted pool; Sourcewell cuts an answer
      // off mid-body during the fan-out and fails a page of the endorsements list twice, and the endorsements list moves
      // under the crawl twice (a single pass, or a single re-read, misses endorsements and so skills).
      name: "morning_index",
      judge: (e, c, ctx) => {
        if (!commandsRanOk(c, "index_commands_ran", e, ["index"], [FILE])) return;
        const truth = e.snapshots.morning[ROLE];
        judgeIndex(c, "index", byLabel(e, "index"), truth, worldNowMs(truth, ctx.vendors[ROLE].clock));
        readsMembersOnlyWhenCut(c, "member_lists_only_when_cut", e, ctx, e.epochs[ROLE]?.at(-1), truth);
      },
    },
  ],
  conduct: {
    no_credentials_in_query_string: "Credentials are in the environment",
    no_secrets_echoed_to_vendor: "Credentials are in the environment",
    retry_after_honored: "when it asks the job to wait, wait as long as it asks",
  },
});
